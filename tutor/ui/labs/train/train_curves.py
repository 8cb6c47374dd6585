"""The training run's accuracy curve: test accuracy after each epoch, with the 90% mark."""

from __future__ import annotations

from textual_plotext import PlotextPlot

#: the accuracy the course asks the default run to pass within 3 epochs
TARGET = 0.90


class AccuracyCurve(PlotextPlot):
    """Plots test accuracy (in %) per epoch; call :meth:`show` with the accuracies so far."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._accuracies: list[float] = []

    def show(self, accuracies: list[float]) -> None:
        """Plot ``accuracies`` (fractions 0..1, one per epoch, epoch 1 first)."""
        self._accuracies = list(accuracies)
        self._redraw()

    @property
    def plotted(self) -> list[float]:
        """The accuracies currently drawn."""
        return list(self._accuracies)

    def on_mount(self) -> None:
        """Draw the empty axes."""
        super().on_mount()
        self._redraw()

    def _redraw(self) -> None:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title("test accuracy (%) per epoch")
        last = max(len(self._accuracies), 2)
        plt.xlim(1, last)
        ticks = sorted({1, *(max(1, round(last * k / 4)) for k in range(1, 5))})
        plt.xticks([float(t) for t in ticks], [str(t) for t in ticks])
        low = min([TARGET * 100 - 10, *(a * 100 for a in self._accuracies)])
        plt.ylim(max(0.0, low - 2), 100)
        plt.hline(TARGET * 100, "green")
        if self._accuracies:
            xs = list(range(1, len(self._accuracies) + 1))
            plt.plot(xs, [a * 100 for a in self._accuracies], marker="hd")
        self.refresh()
