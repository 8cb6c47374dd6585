"""`tutor lab recompile [--sizes 3,5,7,5] [--pad-to N] [--json]`: the recompilation lab,
headless, on the xla runtime.

One step per batch size on the XLA device, torch_xla's compile counters read after each
`torch_xla.sync()`. The lab's row names the xla runtime (the one `make xla-runtime` builds, or
`TUTOR_RUNTIME_XLA`, or `[runtimes.xla]` in config).
"""

from __future__ import annotations

from tutor.commands.labs.common import lab_command
from tutor.content.wording import plural
from tutor.probes.data_recompile import Recompile

#: the mark drawn once per graph compiled so far
BAR = "█"

#: what `tutor lab recompile --help` says it does
HELP = "Run one step per batch size on the XLA device and count the graphs XLA compiles."


def render(data: Recompile) -> str:
    """One line per step: the batch, the shape XLA traced, the compiles so far as a bar."""
    padding = f"padded to {data.pad_to}" if data.pad_to is not None else "not padded"
    lines = [f"{'step':>4}  {'batch':>5}  {'traced shape':<12}  {'loss':>7}  compiles (cached)"]
    for s in data.steps:
        shape = "x".join(map(str, s.shape))
        bar = BAR * s.uncached_compiles
        lines.append(
            f"{s.step:>4}  {s.batch:>5}  {shape:<12}  {s.loss:>7.4f}  "
            f"{bar} {s.uncached_compiles} ({s.cached_compiles})"
        )
    last = data.steps[-1]
    lines.append(
        f"{padding}: {plural(data.distinct_shapes, 'distinct shape')}, "
        f"{plural(last.uncached_compiles, 'compile')}, {plural(last.cached_compiles, 'cache hit')} "
        f"in {plural(len(data.steps), 'step')}"
    )
    return "\n".join(lines)


recompile = lab_command("recompile", HELP, render)
