"""A live loss curve (plotext) that redraws once per burst of updates, however fast it is fed."""

from __future__ import annotations

import math

from textual.message import Message
from textual_plotext import PlotextPlot

#: rows of a plot that hold no data: the title, the frame's top and bottom, the x labels
FRAME_ROWS = 4


class LossCurve(PlotextPlot):
    """Plots a loss sequence on a log scale; inf/NaN values (``None``) leave a gap.

    Call :meth:`show` as often as you like: each call keeps the data and asks for a ``Redraw``,
    and Textual hands the curve only the last of the ``Redraw`` messages waiting in a row, so a
    burst of updates costs one rebuild of the plot, drawn from the latest data.
    """

    class Redraw(Message, bubble=False):
        """Rebuild the plot from the curve's latest data; one replaces those waiting before it."""

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, LossCurve.Redraw)

    def __init__(self, *, title: str = "loss", id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = title
        self._losses: list[float | None] = []
        self._steps = 0

    def show(self, losses: list[float | None], steps: int) -> None:
        """Plot ``losses`` (one per step so far) on an x axis of ``steps`` steps."""
        self._losses, self._steps = losses, steps
        self.post_message(self.Redraw())

    def redraw_now(self) -> None:
        """Rebuild the plot at once (for tests and the final frame)."""
        self._redraw()

    def on_loss_curve_redraw(self, message: Redraw) -> None:
        """The last of a burst of updates: rebuild the plot."""
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
        """Pick the ticks again for the new height (a ``Redraw``, as new data asks)."""
        self.post_message(self.Redraw())

    def _tick_count(self) -> int:
        """How many loss marks the y axis has rows for: five, three or two (two marks that
        share a row would be drawn one or the other, by chance)."""
        rows = self.size.height - FRAME_ROWS
        return 5 if rows >= 5 else 3 if rows >= 3 else 2

    def _redraw(self) -> None:
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
        plt.xticks([float(t) for t in ticks], [str(t) for t in ticks])
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
