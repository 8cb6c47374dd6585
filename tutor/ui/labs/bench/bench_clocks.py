"""The benchmark's clocks side by side: the first call, the naive one-shot readings and the
honest median with its IQR, as bars on one logarithmic scale (first calls can be 10,000x)."""

from __future__ import annotations

import math

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tutor.content.wording import plural
from tutor.probes.data_bench import Bench
from tutor.ui.widgets.panels import DataStatic

BAR = 16


def ms_text(ms: float) -> str:
    """Milliseconds with a sensible unit: 12.3 µs, 4.56 ms, 1.20 s."""
    if ms < 1:
        return f"{ms * 1e3:,.1f} µs"
    if ms < 1000:
        return f"{ms:,.2f} ms"
    return f"{ms / 1e3:,.2f} s"


def log_bar(ms: float, low: float, high: float) -> str:
    """A bar whose length grows with log(ms) between ``low`` and ``high``."""
    if ms <= 0 or high <= low:
        return "▏"
    span = math.log10(high) - math.log10(low)
    filled = 1 + round((BAR - 1) * (math.log10(max(ms, low)) - math.log10(low)) / span)
    return "█" * filled


class BenchClocks(DataStatic[Bench]):
    """One row per clock: what it measured, the time, and a log-scale bar."""

    def draw(self, data: Bench) -> RenderableType:
        t = data.timer
        readings = [data.first_call_ms, data.naive_ms, *data.naive_samples_ms, t.median_ms]
        positive = [ms for ms in readings if ms > 0]
        low = min(positive) / 2 if positive else 1e-3
        high = max(positive) if positive else 1.0
        table = Table(expand=True, box=None, padding=(0, 1), header_style="bold")
        table.add_column("clock", no_wrap=True)
        table.add_column("time", justify="right", no_wrap=True)
        table.add_column("", ratio=1, no_wrap=True, overflow="crop")
        table.add_column("what it is", style="dim", ratio=2)
        table.add_row(
            "first call",
            ms_text(data.first_call_ms),
            Text(log_bar(data.first_call_ms, low, high), style="red"),
            "one call, cold: warm-up, allocation, compilation",
        )
        table.add_row(
            "naive time.time()",
            ms_text(data.naive_ms),
            Text(log_bar(data.naive_ms, low, high), style="yellow"),
            f"one warm call, one sample, {plural(data.default_threads, 'thread')}",
        )
        if data.naive_samples_ms:
            lo, hi = min(data.naive_samples_ms), max(data.naive_samples_ms)
            table.add_row(
                f"  {len(data.naive_samples_ms)} more",
                f"{ms_text(lo)}–{ms_text(hi)}" if hi > lo else ms_text(hi),
                Text(log_bar(hi, low, high), style="yellow dim"),
                "the same call read again: the spread one reading hides",
            )
        table.add_row(
            "Timer median",
            ms_text(t.median_ms),
            Text(log_bar(t.median_ms, low, high), style="green"),
            f"IQR {ms_text(t.iqr_ms)}: {t.runs} blocks × {t.number_per_run} calls, "
            f"{plural(t.threads, 'thread')} pinned",
        )
        return table
