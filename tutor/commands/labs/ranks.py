"""`tutor lab ranks --world N --op OP [--values v0,v1,..] [--slow R] [--skip R] [--json]`: the
rank timeline, headless."""

from __future__ import annotations

import click

from tutor.commands.labs.common import echo_lab, probe_data
from tutor.probes.data_ranks import MAX_DELAY_MS, MAX_WORLD, MIN_WORLD, OPS, Ranks


def numbers(text: str) -> list[float]:
    """``"1,2,3"`` -> ``[1.0, 2.0, 3.0]`` (click reports a bad list as a usage error)."""
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"expected numbers separated by commas, not {text!r}") from None


def render(data: Ranks) -> str:
    """Before and after per rank, the timeline, and the explanation."""
    lines = [f"{data.op} on {data.world} gloo ranks"]
    for r in range(data.world):
        waited = data.waited_ms[r]
        inside = f"{waited:8.1f} ms inside" if waited is not None else "   never entered"
        error = f"  ! {data.errors[r]}" if data.errors[r] else ""
        lines.append(f"  rank {r}: {data.before[r]} -> {data.after[r]}  {inside}{error}")
    lines.append("timeline (ms since start):")
    for e in data.timeline:
        lines.append(f"  rank {e.rank}  {e.event:<15}{e.start_ms:9.1f} -> {e.end_ms:9.1f}")
    lines.append(data.explanation)
    return "\n".join(lines)


@click.command()
@click.option("--world", type=click.IntRange(MIN_WORLD, MAX_WORLD), default=4, show_default=True)
@click.option("--op", type=click.Choice(OPS), default="all_reduce", show_default=True)
@click.option("--values", default="", help="One number per rank, e.g. 1,2,3,4 (default r + 1).")
@click.option("--slow", "slow", type=int, default=None, help="A rank that works longer first.")
@click.option(
    "--delay-ms",
    type=click.FloatRange(0, MAX_DELAY_MS),
    default=300.0,
    show_default=True,
    help="How much longer the slow rank works.",
)
@click.option("--skip", "skip", type=int, default=None, help="A rank that never calls the op.")
@click.option("--timeout", "timeout_s", type=float, default=2.0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the data as one JSON object.")
def ranks(
    world: int,
    op: str,
    values: str,
    slow: int | None,
    delay_ms: float,
    skip: int | None,
    timeout_s: float,
    as_json: bool,
) -> None:
    """Run one collective on N real gloo ranks and show each rank's tensor and wait."""
    data = probe_data(
        Ranks,
        "ranks",
        world=world,
        op=op,
        values=numbers(values) or None,
        slow_rank=slow,
        delay_ms=delay_ms,
        skip_rank=skip,
        timeout_s=timeout_s,
    )
    echo_lab(data, as_json, render)
