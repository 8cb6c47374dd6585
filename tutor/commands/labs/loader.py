"""`tutor lab loader --samples N --batch B [--drop-last] [--workers W] [--json]`: how a real
DataLoader batches N samples and which process made each batch, headless."""

from __future__ import annotations

from typing import Any

import click

from tutor.commands.labs.common import echo_lab, probe_data
from tutor.probes.data_loader import MAX_SAMPLES, MAX_WORKERS, LoaderRun

#: the keys of the JSON contract, in order
KEYS = ("samples", "batch", "drop_last", "batches", "full", "last", "steps_per_epoch", "timeline")


def face(data: LoaderRun) -> dict[str, Any]:
    """The contract's JSON object."""
    dumped = data.model_dump(mode="json")
    return {key: dumped[key] for key in KEYS}


def render(data: LoaderRun) -> str:
    """The batch arithmetic, then one line per batch."""
    lines = [
        f"{data.samples} samples, batch {data.batch}, drop_last={data.drop_last}, "
        f"{data.workers} workers",
        f"{data.batches} batches: {data.full} full, last holds {data.last}; "
        f"steps per epoch {data.steps_per_epoch}",
        "timeline (ms since the loop started):",
    ]
    if len(data.timeline) < data.batches:
        lines[-1] = (
            f"timeline of the first {len(data.timeline)} batches (ms since the loop started):"
        )
    for e in data.timeline:
        who = "main" if e.worker < 0 else f"worker {e.worker}"
        lines.append(f"  batch {e.batch:<5} {who:<9}{e.start_ms:9.1f} -> {e.end_ms:9.1f}")
    return "\n".join(lines)


@click.command()
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=10, show_default=True)
@click.option("--batch", type=click.IntRange(1, MAX_SAMPLES), default=3, show_default=True)
@click.option("--drop-last", is_flag=True, help="Drop a last batch smaller than --batch.")
@click.option("--workers", type=click.IntRange(0, MAX_WORKERS), default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the data as one JSON object.")
def loader(samples: int, batch: int, drop_last: bool, workers: int, as_json: bool) -> None:
    """Iterate a real DataLoader over N samples and show its batches and who made them."""
    data = probe_data(
        LoaderRun,
        "loader",
        samples=samples,
        batch=batch,
        drop_last=drop_last,
        workers=workers,
    )
    echo_lab(data, as_json, render, face)
