"""The dispatch race's numbers: the two contestants' code, timing statistics, and how many
trips each made from Python into torch."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tutor.content.wording import plural
from tutor.probes.data_race import Race
from tutor.ui.labs.race.race_bars import duration
from tutor.ui.widgets.panels import DataStatic


class RaceTable(DataStatic[Race]):
    """Code, median, IQR, timed blocks, Python calls and ATen ops of each side."""

    def draw(self, data: Race) -> RenderableType:
        table = Table(expand=True, box=None, padding=(0, 1), header_style="bold")
        table.add_column("", style="dim", no_wrap=True)
        table.add_column("loop", ratio=1)
        table.add_column("batched", ratio=1)
        loop, batched = data.loop, data.batched
        table.add_row("code", Text(loop.code), Text(batched.code))
        table.add_row("median", duration(loop.median_s), duration(batched.median_s))
        table.add_row("IQR", duration(loop.iqr_s), duration(batched.iqr_s))
        table.add_row(
            "timed",
            f"{loop.measurements} blocks × {loop.runs_per_measurement}",
            f"{batched.measurements} blocks × {batched.runs_per_measurement}",
        )
        table.add_row(
            "python→torch", plural(loop.python_calls, "call"), plural(batched.python_calls, "call")
        )
        table.add_row("ATen ops", f"{loop.aten_ops:,}", f"{batched.aten_ops:,}")
        table.add_row(
            "per sample",
            duration(loop.median_s / data.n),
            duration(batched.median_s / data.n),
        )
        return table
