"""`tutor lab race [--n N] [--op OP] [--json]`: the dispatch race, headless."""

from __future__ import annotations

import click

from tutor.commands.labs.common import echo_lab, probe_data
from tutor.probes.data_race import MAX_N, OPS, Race


def render(data: Race) -> str:
    """The race as a small table."""
    rows = [("", "loop", "batched")]
    rows.append(
        ("median", f"{data.loop.median_s * 1e6:,.1f} µs", f"{data.batched.median_s * 1e6:,.1f} µs")
    )
    rows.append(("IQR", f"{data.loop.iqr_s * 1e6:,.1f} µs", f"{data.batched.iqr_s * 1e6:,.1f} µs"))
    rows.append(("python calls", str(data.loop.python_calls), str(data.batched.python_calls)))
    rows.append(("aten ops", str(data.loop.aten_ops), str(data.batched.aten_ops)))
    lines = [
        f"{data.title} (N={data.n}, dim={data.dim})",
        f"  setup:   {data.setup.replace(chr(10), '; ')}",
    ]
    lines += [f"  loop:    {data.loop.code}", f"  batched: {data.batched.code}"]
    lines += ["  " + f"{a:<14}{b:>16}{c:>16}" for a, b, c in rows]
    same = (
        "same result" if data.match else f"DIFFERENT results (max |diff| {data.max_abs_diff:.3g})"
    )
    lines.append(f"  the loop took {data.ratio:,.1f}x as long; {same}")
    return "\n".join(lines)


@click.command()
@click.option(
    "--n", "n", type=click.IntRange(1, MAX_N), default=256, show_default=True, help="Batch size."
)
@click.option("--op", type=click.Choice(sorted(OPS)), default="linear", show_default=True)
@click.option("--dim", type=click.IntRange(1, 1024), default=64, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the data as one JSON object.")
def race(n: int, op: str, dim: int, as_json: bool) -> None:
    """Time a per-sample Python loop against one batched op on the same data."""
    data = probe_data(Race, "race", op=op, n=n, dim=dim)
    echo_lab(data, as_json, render)
