"""`tutor lab bridges [CODE] [--json]`: the two-bridge ledger, headless, on the xla runtime.

CODE defines `model`, `args` and optionally `forward(model, *args)`. Without `--runtime`, the
ledger runs on the project's xla runtime (`.venv-xla`, built by `make xla-runtime`).
"""

from __future__ import annotations

import click

from tutor.commands.context import open_sandbox, settings_of
from tutor.commands.labs.common import echo_lab
from tutor.content.labs import get_lab
from tutor.paths import PROJECT_ROOT
from tutor.probes.data_bridges import DEFAULT_CODE, Bridges

PROBE = get_lab("bridges").probe

#: the interpreter of the xla runtime `make xla-runtime` builds
XLA_PYTHON = PROJECT_ROOT / ".venv-xla" / "bin" / "python"


def xla_runtime() -> str | None:
    """The runtime to use: ``--runtime`` when given, else the built xla venv, else None."""
    chosen = settings_of().runtime
    if chosen:
        return chosen
    return str(XLA_PYTHON) if XLA_PYTHON.exists() else None


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
        f"torch_xla lazy             {x.output}   {same[x.matches_eager]}; {x.compiles} compile(s)",
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


@click.command()
@click.argument("code", required=False, default=DEFAULT_CODE)
@click.option("--json", "as_json", is_flag=True, help="Print the data as one JSON object.")
def bridges(code: str, as_json: bool) -> None:
    """Run CODE's `model` on `args` through eager torch, torch_xla and torchax; compare outputs."""
    runtime = xla_runtime()
    if runtime is None:
        raise click.ClickException(
            "the two-bridge ledger runs on the xla runtime: build it with `make xla-runtime` "
            "(or name one with `tutor --runtime PYTHON`)"
        )
    with open_sandbox(runtime=runtime) as sandbox:
        result = sandbox.call(PROBE, timeout=300.0, memory_mb=8192, code=code)
    if not result.ok:
        raise click.ClickException(result.message)
    echo_lab(Bridges.model_validate(result.value), as_json, render)
