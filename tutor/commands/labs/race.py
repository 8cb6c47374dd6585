"""`tutor lab race [--n N] [--op OP] [--json]`: the dispatch race, headless."""

from __future__ import annotations

from tutor.commands.labs.common import lab_command
from tutor.probes.data_race import Race

#: what `tutor lab race --help` says it does
HELP = "Time a per-sample Python loop against one batched op on the same data."


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


race = lab_command("race", HELP, render)
