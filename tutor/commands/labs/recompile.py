"""`tutor lab recompile [--sizes 3,5,7,5] [--pad-to N] [--json]`: the recompilation lab,
headless, on the xla runtime.

One step per batch size on the XLA device, torch_xla's compile counters read after each
`torch_xla.sync()`. Without `--runtime`, the lab runs on the project's xla runtime (`.venv-xla`,
built by `make xla-runtime`).
"""

from __future__ import annotations

import click

from tutor.commands.context import open_sandbox
from tutor.commands.labs.bridges import xla_runtime
from tutor.commands.labs.common import echo_lab
from tutor.content.labs import get_lab
from tutor.probes.data_recompile import DEFAULT_SIZES, Recompile, check_sizes, parse_sizes

PROBE = get_lab("recompile").probe

#: the mark drawn once per graph compiled so far
BAR = "█"


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
        f"{padding}: {data.distinct_shapes} distinct shape(s), {last.uncached_compiles} "
        f"compile(s), {last.cached_compiles} cache hit(s) in {len(data.steps)} steps"
    )
    return "\n".join(lines)


@click.command()
@click.option(
    "--sizes",
    default=",".join(map(str, DEFAULT_SIZES)),
    show_default=True,
    help="The batch sizes the loop sees, in order, separated by commas.",
)
@click.option("--pad-to", type=int, default=None, help="Pad every batch to this many rows.")
@click.option("--json", "as_json", is_flag=True, help="Print the data as one JSON object.")
def recompile(sizes: str, pad_to: int | None, as_json: bool) -> None:
    """Run one step per batch size on the XLA device and count the graphs XLA compiles."""
    try:
        batch_sizes = parse_sizes(sizes)
        check_sizes(batch_sizes, pad_to)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    runtime = xla_runtime()
    if runtime is None:
        raise click.ClickException(
            "the recompilation lab runs on the xla runtime: build it with `make xla-runtime` "
            "(or name one with `tutor --runtime xla`)"
        )
    with open_sandbox(runtime=runtime) as sandbox:
        result = sandbox.call(
            PROBE, timeout=300.0, memory_mb=8192, sizes=batch_sizes, pad_to=pad_to
        )
    if not result.ok:
        raise click.ClickException(result.message)
    echo_lab(Recompile.model_validate(result.value), as_json, render)
