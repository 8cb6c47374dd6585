"""The guard viewer lab: type a function and a list of calls, see what ``torch.compile``
captured (graphs, breaks with their lines, each graph's ops), the guards it installed, and every
recompile with the guard that failed."""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Static, TextArea

from tutor.probes.data_guards import BACKENDS, GuardReport
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.guards.guards_panels import EventTable, guards_text, ops_text
from tutor.ui.widgets.code_editor import CodeEditor
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

DEFAULT_CODE = (
    "def f(x, k):\n"
    "    y = x.sin() * k\n"
    '    print("step")\n'
    "    return y.cos()\n\n"
    "calls = [(torch.randn(4), 2), (torch.randn(4), 3), (torch.randn(5), 3)]"
)


class GuardsLab(LabScreen):
    """The guard viewer. Preset keys: ``code`` (defines ``f`` and ``calls``) or ``setup``,
    ``backend`` (eager, aot_eager or inductor)."""

    LAB = "guards"
    CSS_PATH = Path(__file__).with_name("guards.tcss")
    ERROR_LINE = "#guards-error"
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+r", "run", "Compile & call", priority=True),
        Binding("b", "next_backend", "Backend"),
        Binding("e", "edit", "Edit code"),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        self.code = preset.get("code") or preset.get("setup") or DEFAULT_CODE
        """The code last compiled."""
        backend = preset.get("backend", "eager")
        self.backend = backend if backend in BACKENDS else "eager"
        """The backend the next run compiles with."""
        self.data: GuardReport | None = None
        """The last report shown."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield CodeEditor(self.code, language="python", id="guards-code")
        yield RunStatus(id="guards-status")
        yield Static(id="guards-error")
        with Horizontal(id="guards-body"):
            with Vertical(id="guards-left"):
                yield Static(id="guards-ops")
                yield EventTable(id="guards-events")
            with VerticalScroll(id="guards-set"):
                yield Static(id="guards-set-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Guard viewer"
        self.query_one(
            "#guards-code"
        ).border_title = "define f and calls · ctrl+r compiles and calls"
        self.query_one("#guards-ops").border_title = "graphs of the first call"
        self.query_one("#guards-events").border_title = "breaks and recompiles"
        self.query_one("#guards-set").border_title = "guards of the first compile"
        self.query_one(RunStatus).message = f"backend {self.backend} · b changes it"
        if self.has_sandbox:
            self.action_run()

    def action_run(self) -> None:
        """Compile and call the code in the editor."""
        self.code = self.query_one("#guards-code", TextArea).text
        if self.code.strip():
            self.probe()

    @work(exclusive=True)
    async def probe(self) -> None:
        """Run the current code through torch.compile in the sandbox."""
        data = await self.run_probe(
            GuardReport,
            busy=f"compiling with the {self.backend} backend and calling",
            hint="fix the code and press ctrl+r",
            code=self.code,
            backend=self.backend,
        )
        if data is not None:
            self.show(data)

    def show(self, data: GuardReport) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.data = data
        self.hide_error()
        self.query_one("#guards-ops", Static).update(ops_text(data))
        self.query_one(EventTable).show(data)
        self.query_one("#guards-set-text", Static).update(guards_text(data))
        self.query_one(RunStatus).message = (
            f"{data.graphs} graph(s), {len(data.graph_breaks)} break(s) on the first call · "
            f"{len(data.recompiles)} recompile(s) · backend {data.backend} (b changes it)"
        )
        self.query_one(EventTable).focus()

    def action_next_backend(self) -> None:
        """Switch to the next backend and run again."""
        self.backend = BACKENDS[(BACKENDS.index(self.backend) + 1) % len(BACKENDS)]
        self.query_one(RunStatus).message = f"backend {self.backend}"
        self.action_run()

    def action_edit(self) -> None:
        self.query_one("#guards-code", TextArea).focus()

    @on(TextArea.Changed)
    def edited(self) -> None:
        self.hide_error()
