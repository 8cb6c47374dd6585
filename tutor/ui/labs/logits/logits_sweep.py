"""The loss along the target's logit, both ways: the right loss falls to 0, softmax-first floors."""

from __future__ import annotations

from textual_plotext import PlotextPlot

from tutor.probes.data_logits import LogitsResult


class LogitsSweep(PlotextPlot):
    """Plots ``result.sweep``; a vertical line marks where the target's logit is now."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._result: LogitsResult | None = None

    def show(self, result: LogitsResult | None) -> None:
        """Draw the sweep of ``result`` (clear the plot when None)."""
        self._result = result
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title("loss as the target's logit moves")
        sweep = result.sweep if result is not None else None
        if result is not None and sweep is not None:
            plt.plot(sweep.x, sweep.correct, label="CE(z)", marker="hd")
            floor = result.softmax_first.floor
            plt.plot(
                sweep.x,
                sweep.softmax_first,
                label=f"CE(softmax(z)) ≥ {floor:.3f}",
                marker="hd",
            )
            plt.vline(result.logits[result.target], "gray")
            plt.xlim(sweep.x[0], sweep.x[-1])
            plt.xlabel(f"z[{result.target}]")
        self.refresh()

    @property
    def shown(self) -> LogitsResult | None:
        """The result drawn last."""
        return self._result
