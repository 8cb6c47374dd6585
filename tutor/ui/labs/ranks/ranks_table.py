"""Each rank's tensor before and after the collective, how long it spent inside, and what the
collective raised there."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tutor.probes.data_ranks import Ranks
from tutor.ui.widgets.panels import DataStatic


def numbers(values: list[float]) -> str:
    """``[1.0, 2.5]`` -> ``[1, 2.5]``."""
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"


class RanksTable(DataStatic[Ranks]):
    """One row per rank: before, after, time inside the collective, error."""

    def draw(self, data: Ranks) -> RenderableType:
        table = Table(expand=True, box=None, padding=(0, 1), header_style="bold")
        table.add_column("rank", no_wrap=True)
        table.add_column("before", ratio=1)
        table.add_column("after", ratio=1)
        table.add_column("inside the op", justify="right", no_wrap=True)
        table.add_column("", ratio=2)
        for r in range(data.world):
            waited = data.waited_ms[r]
            inside = "never called it" if waited is None else f"{waited:,.1f} ms"
            error = data.errors[r]
            if error:
                note = Text(error, style="red")
            elif r == data.last_to_arrive:
                note = Text("arrived last: the others waited for it", style="yellow")
            elif r == data.slow_rank:
                note = Text("the slow rank", style="yellow")
            else:
                note = Text("")
            changed = data.after[r] != data.before[r]
            table.add_row(
                str(r),
                numbers(data.before[r]),
                Text(numbers(data.after[r]), style="bold" if changed else ""),
                inside,
                note,
            )
        return table
