"""The diagnosis panel: symptom → likely cause → first fix, read off the run's numbers."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tutor.probes.data_loop_trace import Finding

LEVEL_STYLE = {"ok": "$success", "warn": "$warning", "bad": "$error"}
LEVEL_MARK = {"ok": "✔", "warn": "▲", "bad": "✖"}


class LoopDiagnosis(Widget):
    """Draws one :class:`Finding`, or an error message when the run could not be made."""

    DEFAULT_CSS = """
    LoopDiagnosis {
        height: auto;
        padding: 0 1;
    }
    LoopDiagnosis.-error {
        color: $error;
    }
    """

    finding: reactive[Finding | None] = reactive(None, layout=True)
    """the diagnosis to draw."""
    error: reactive[str] = reactive("", layout=True)
    """a plain message shown instead (bad input, the sandbox said no)."""

    def watch_error(self, error: str) -> None:
        self.set_class(bool(error), "-error")

    def render(self) -> Text | Table:
        """The finding as labelled rows: symptom, cause, first fix, evidence."""
        if self.error:
            return Text(self.error)
        finding = self.finding
        if finding is None:
            return Text("running…", style="italic")
        color = self.app.theme_variables.get(LEVEL_STYLE[finding.level].lstrip("$"), "")
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        grid.add_row(LEVEL_MARK[finding.level], Text(finding.symptom, style=f"bold {color}"))
        for label, value in (
            ("cause", finding.cause),
            ("fix", finding.fix),
            ("seen", finding.evidence),
        ):
            if value:
                grid.add_row(label, value)
        return grid
