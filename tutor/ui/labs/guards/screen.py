"""The guard viewer lab: type a function and a list of calls, see what ``torch.compile``
captured (graphs, breaks with their lines, each graph's ops), the guards it installed, and every
recompile with the guard that failed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static, TextArea

from tutor.content.labs import Value
from tutor.content.wording import plural
from tutor.probes.data_guards import BACKENDS, GuardReport
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.guards.guards_panels import EventTable, guards_text, ops_text


class GuardsLab(LabScreen[GuardReport]):
    """The guard viewer. Preset keys: ``code`` (defines ``f`` and ``calls``) or ``setup``,
    ``backend`` (eager, aot_eager or inductor)."""

    HINT = "fix the code and press ctrl+r"
    RUN_KEY = "Compile & call"
    BINDINGS = [
        Binding("b", "next_backend", "Backend"),
        Binding("e", "edit", "Edit code"),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__(preset)
        self.data: GuardReport | None = None
        """The last report shown."""

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="guards-body"):
            with Vertical(id="guards-left"):
                yield Static(id="guards-ops")
                with VerticalScroll(id="guards-events"):
                    yield EventTable(id="guards-event-rows")
            with VerticalScroll(id="guards-set"):
                yield Static(id="guards-set-text")

    def mounted(self) -> None:
        self.query_one("#guards-ops").border_title = "graphs of the first call"
        self.query_one("#guards-events").border_title = "breaks and recompiles"
        self.query_one("#guards-set").border_title = "guards of the first compile"

    def idle(self) -> str:
        return f"backend {self.values['backend']} · b changes it"

    def busy(self, values: dict[str, Value]) -> str:
        return f"compiling with the {values['backend']} backend and calling"

    def show(self, data: GuardReport) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.data = data
        self.hide_error()
        self.query_one("#guards-ops", Static).update(ops_text(data))
        self.query_one(EventTable).show(data)
        self.query_one("#guards-set-text", Static).update(guards_text(data))
        self.say(
            f"{plural(data.graphs, 'graph')}, {plural(len(data.graph_breaks), 'break')} on the "
            "first call · "
            f"{plural(len(data.recompiles), 'recompile')} · backend {data.backend} (b changes it)"
        )
        self.query_one("#guards-events").focus()  # arrows and PageDown scroll the table

    def action_next_backend(self) -> None:
        """Switch to the next backend and run again."""
        backend = str(self.values["backend"])
        self.values["backend"] = BACKENDS[(BACKENDS.index(backend) + 1) % len(BACKENDS)]
        self.say(f"backend {self.values['backend']}")
        self.action_run()

    def action_edit(self) -> None:
        self.query_one("#guards-code", TextArea).focus()
