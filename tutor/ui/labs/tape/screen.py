"""The autograd tape lab: type forward code ending in a scalar, see the graph that run built,
and step the backward pass node by node in the order autograd really ran it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import TabbedContent, TabPane, TextArea

from tutor.content.labs import Value
from tutor.probes.data_tape import Tape
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.tape.tape_graph import TapeGraph
from tutor.ui.labs.tape.tape_panels import TapeChecks, TapeStepPanel


class TapeLab(LabScreen[Tape]):
    """The tape stepper. Preset keys: ``code`` (forward code), or ``setup`` (a drill's setup,
    used as the starting code)."""

    HINT = "fix the code and press ctrl+r"
    RUN_KEY = "Run code"
    BINDINGS = [
        Binding("n", "step(1)", "Next node"),
        Binding("p", "step(-1)", "Prev"),
        Binding("a", "step_all", "All", show=False),
        Binding("r", "restart", "Restart", show=False),
        Binding("c", "toggle_tab", "Step/checks"),
        Binding("e", "edit", "Edit code"),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__(preset)
        self.data: Tape | None = None
        """The last tape recorded."""

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="tape-body"):
            with VerticalScroll(id="tape-graph-box"):
                yield TapeGraph(id="tape-graph")
            with TabbedContent(id="tape-tabs"):
                with TabPane("Step", id="tab-step"), VerticalScroll():
                    yield TapeStepPanel(id="tape-step")
                with TabPane("Checks", id="tab-checks"), VerticalScroll():
                    yield TapeChecks(id="tape-checks")

    def busy(self, values: dict[str, Value]) -> str:
        return "running forward and backward"

    def show(self, data: Tape) -> None:
        """Draw ``data`` at step 0 (also used by tests with recorded data)."""
        self.data = data
        editor = self.query_one("#tape-code", TextArea)
        if editor.text != data.code:
            editor.load_text(data.code)
        self.hide_error()
        for widget in (self.query_one(TapeGraph), self.query_one(TapeStepPanel)):
            widget.data = data
        self.query_one(TapeChecks).data = data
        self.set_step(0)
        self.query_one("#tape-graph-box").focus()

    # --- stepping ---------------------------------------------------------------------------

    def set_step(self, step: int) -> None:
        """Show the state after ``step`` nodes of the backward pass."""
        if self.data is None:
            return
        step = max(0, min(len(self.data.order), step))
        self.query_one(TapeGraph).step = step
        self.query_one(TapeStepPanel).step = step
        self.say(f"backward step {step}/{len(self.data.order)} · n next · p previous · c checks")

    def action_step(self, delta: int) -> None:
        self.set_step(self.query_one(TapeGraph).step + delta)

    def action_step_all(self) -> None:
        self.set_step(len(self.data.order) if self.data else 0)

    def action_restart(self) -> None:
        self.set_step(0)

    def action_toggle_tab(self) -> None:
        tabs = self.query_one(TabbedContent)
        tabs.active = "tab-checks" if tabs.active == "tab-step" else "tab-step"

    def action_edit(self) -> None:
        self.query_one("#tape-code", TextArea).focus()
