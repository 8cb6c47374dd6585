"""`tutor lab loader --samples N --batch B [--drop-last] [--workers W] [--json]`: how a real
DataLoader batches N samples and which process made each batch, headless."""

from __future__ import annotations

from typing import Any

from tutor.commands.labs.common import lab_command
from tutor.probes.data_loader import LoaderRun

#: the keys of the JSON contract, in order
KEYS = ("samples", "batch", "drop_last", "batches", "full", "last", "steps_per_epoch", "timeline")

#: what `tutor lab loader --help` says it does
HELP = "Iterate a real DataLoader over N samples and show its batches and who made them."


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


loader = lab_command("loader", HELP, render, face)
