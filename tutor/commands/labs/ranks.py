"""`tutor lab ranks --world N --op OP [--values v0,v1,..] [--slow R] [--skip R] [--json]`: the
rank timeline, headless."""

from __future__ import annotations

from tutor.commands.labs.common import lab_command
from tutor.probes.data_ranks import Ranks

#: what `tutor lab ranks --help` says it does
HELP = "Run one collective on N real gloo ranks and show each rank's tensor and wait."


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


ranks = lab_command("ranks", HELP, render)
