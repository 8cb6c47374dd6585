"""A live loss curve (plotext) that redraws at most ~20 times a second however fast it is fed."""

from __future__ import annotations

import math

from textual.timer import Timer
from textual_plotext import PlotextPlot

REDRAW_INTERVAL = 0.05
#: rows of a plot that hold no data: the title, the frame's top and bottom, the x labels
FRAME_ROWS = 4


class LossCurve(PlotextPlot):
    """Plots a loss sequence on a log scale; inf/NaN values (``None``) leave a gap.

    Call :meth:`show` as often as you like: the plot is rebuilt on a timer, so a stream of
    updates costs one redraw per interval.
    """

    def __init__(self, *, title: str = "loss", id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = title
        self._losses: list[float | None] = []
        self._steps = 0
        self._pending: Timer | None = None

    def show(self, losses: list[float | None], steps: int) -> None:
        """Plot ``losses`` (one per step so far) on an x axis of ``steps`` steps."""
        self._losses, self._steps = losses, steps
        if self._pending is None:
            self._pending = self.set_timer(REDRAW_INTERVAL, self._redraw)

    def redraw_now(self) -> None:
        """Rebuild the plot at once (for tests and the final frame)."""
        if self._pending is not None:
            self._pending.stop()
        self._redraw()

    @property
    def plotted(self) -> list[float | None]:
        """The losses currently drawn."""
        return list(self._losses)

    def on_mount(self) -> None:
        """Draw the empty axes."""
        super().on_mount()
        self._redraw()

    def on_resize(self) -> None:
        """Pick the ticks again for the new height (through the same throttle as new data)."""
        self.show(self._losses, self._steps)

    def _tick_count(self) -> int:
        """How many loss marks the y axis has rows for: five, three or two (two marks that
        share a row would be drawn one or the other, by chance)."""
        rows = self.size.height - FRAME_ROWS
        return 5 if rows >= 5 else 3 if rows >= 3 else 2

    def _redraw(self) -> None:
        self._pending = None
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        points = [
            (i + 1, math.log10(v)) for i, v in enumerate(self._losses) if v is not None and v > 0
        ]
        plt.title(self._title + " (log scale)")
        last = max(self._steps, 2)
        plt.xlim(1, last)
        ticks = sorted({1, *(round(last * k / 4) for k in range(1, 5))})
        plt.xticks(ticks, [str(t) for t in ticks])
        if points:
            xs, ys = zip(*points, strict=True)
            plt.plot(list(xs), list(ys), marker="hd")
            low, high = min(ys), max(ys)
            if high - low < 1e-9:
                low, high = low - 0.5, high + 0.5
            count = self._tick_count()
            marks = [low + (high - low) * k / (count - 1) for k in range(count)]
            plt.ylim(low, high)
            plt.yticks(marks, [f"{10**m:.3g}" for m in marks])
        broken = [i + 1 for i, v in enumerate(self._losses) if v is None]
        if broken:
            plt.vline(broken[0], "red")
        self.refresh()
