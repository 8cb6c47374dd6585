"""The last few steps of a run, one row each: loss, parameters (or accuracies), gradient norm."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tutor.probes.data_loop_trace import LoopTrace
from tutor.ui.labs.loop.loop_state import fmt


class LoopHistory(Widget):
    """A table of the most recent completed steps (as many as fit), newest at the bottom."""

    DEFAULT_CSS = """
    LoopHistory {
        height: 1fr;
        padding: 0 1;
    }
    """

    trace: reactive[LoopTrace | None] = reactive(None)
    """the run."""
    completed: reactive[int] = reactive(0)
    """how many steps have completed."""

    def render(self) -> Table | Text:
        """The rows that fit, with a header."""
        trace = self.trace
        if trace is None or not self.completed:
            return Text("completed steps appear here", style="dim italic")
        rows = max(1, self.size.height - 1)
        steps = trace.steps[max(0, self.completed - rows) : self.completed]
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("step", justify="right", style="dim")
        table.add_column("loss", justify="right")
        values = trace.param_kind == "value"
        if values:
            for name in trace.param_names:
                table.add_column(name, justify="right")
        else:
            table.add_column("acc", justify="right")
            table.add_column("eval", justify="right")
        table.add_column("‖grad‖", justify="right")
        for step in steps:
            cells = [str(step.index + 1), fmt(step.loss)]
            if values:
                cells += [fmt(v) for v in step.states[-1].params]
            else:
                cells += [
                    "" if step.accuracy is None else f"{step.accuracy:.0%}",
                    "" if step.eval_accuracy is None else f"{step.eval_accuracy:.0%}",
                ]
            cells.append(fmt(step.grad_norm))
            table.add_row(*cells)
        return table
