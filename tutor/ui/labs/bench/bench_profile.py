"""The profiler's top operators for the learner's ``fn``: self time, calls and share."""

from __future__ import annotations

from rich.table import Table
from textual.reactive import reactive
from textual.widgets import Static

from tutor.content.wording import plural
from tutor.probes.data_bench import Bench
from tutor.ui.labs.bench.bench_clocks import ms_text

SHARE = 12


class BenchProfile(Static):
    """The top ops by self CPU time over the profiled calls, with each op's share as a bar."""

    data: reactive[Bench | None] = reactive(None)
    """The benchmark result whose profile is shown."""

    def watch_data(self, data: Bench | None) -> None:
        if data is None or not data.profile:
            self.update("" if data is None else "the profiler saw no torch operators")
            return
        total = sum(p.self_ms for p in data.profile) or 1.0
        table = Table(
            expand=True,
            box=None,
            padding=(0, 1),
            header_style="bold",
            title=f"profiler: top ops by self time over {plural(data.profiled_calls, 'call')}",
            title_justify="left",
        )
        table.add_column("op", no_wrap=True, ratio=2)
        table.add_column("self", justify="right", no_wrap=True)
        table.add_column("calls", justify="right", no_wrap=True)
        table.add_column("share", no_wrap=True, ratio=1)
        for p in data.profile:
            share = p.self_ms / total
            bar = "█" * max(1, round(SHARE * share))
            table.add_row(p.op, ms_text(p.self_ms), f"{p.calls:,}", f"{bar} {share:.0%}")
        self.update(table)
