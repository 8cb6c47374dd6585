"""`tutor lab bridges [CODE] [--json]`: the two-bridge ledger, headless, on the xla runtime.

CODE defines `model`, `args` and optionally `forward(model, *args)`. The lab's row names the xla
runtime: the one `make xla-runtime` builds (or `TUTOR_RUNTIME_XLA`, or `[runtimes.xla]` in
config).
"""

from __future__ import annotations

from tutor.commands.labs.common import lab_command
from tutor.content.wording import plural
from tutor.probes.data_bridges import Bridges

#: what `tutor lab bridges --help` says it does
HELP = "Run CODE's `model` on `args` through eager torch, torch_xla and torchax; compare outputs."


def first_lines(text: str, n: int = 12) -> str:
    """The first ``n`` lines of ``text``, and how many more there are."""
    lines = text.splitlines()
    more = f"\n    ... {len(lines) - n} more lines" if len(lines) > n else ""
    return "\n".join("    " + line for line in lines[:n]) + more


def render(data: Bridges) -> str:
    """The ledger: outputs and their comparison with eager first, then the IR and StableHLO."""
    x, t = data.xla, data.torchax
    same = {True: "same as eager", False: "DIFFERS from eager", None: "could not be run"}
    lines = [
        f"eager                      {data.eager.output}",
        f"torch_xla lazy             {x.output}   {same[x.matches_eager]}; {plural(x.compiles, 'compile')}",
        f"torch_xla StableHLO export {same[x.export_matches_eager]} when run",
        f"torchax (jax.jit)          {t.output}   {same[t.matches_eager]}",
        "torch_xla lazy IR:",
        first_lines(x.ir),
        "torch_xla StableHLO (export):",
        first_lines(x.stablehlo),
        "torchax StableHLO (jax.jit(...).lower):",
        first_lines(t.stablehlo),
    ]
    return "\n".join(lines)


bridges = lab_command("bridges", HELP, render)
