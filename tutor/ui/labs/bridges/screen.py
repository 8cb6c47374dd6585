"""The two-bridge ledger (chapter 10): one model through eager torch, torch_xla's lazy tensors,
torch_xla's StableHLO export and torchax, outputs compared with eager before any IR is shown.
The probe runs on the xla runtime; elsewhere the lab says how to get it."""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button, Header, Select, Static, TabbedContent, TabPane, TextArea

from tutor.probes.data_bridges import DEFAULT_CODE, SUM_CODE, Bridges
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.bridges.bridges_ledger import BridgesLedger
from tutor.ui.widgets.code_editor import CodeEditor
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

EXAMPLES = {"a small MLP": DEFAULT_CODE, "a full x.sum()": SUM_CODE}
IDLE = "edit the code (it defines model, args and optionally forward), then ctrl+r"


class BridgesLab(LabScreen):
    """The two-bridge ledger. Preset keys: ``code``, or ``example`` (a key of ``EXAMPLES``)."""

    LAB = "bridges"
    CSS_PATH = Path(__file__).with_name("bridges.tcss")
    ERROR_LINE = "#bridges-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+r", "run", "Run", priority=True),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        example = preset.get("example", "")
        self.example = example if example in EXAMPLES else next(iter(EXAMPLES))
        """The example chosen."""
        self.code = preset.get("code") or EXAMPLES[self.example]
        """The code shown in the editor at the start."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="bridges-controls"):
            options = [(name, name) for name in EXAMPLES]
            yield Select(options, value=self.example, allow_blank=False, id="bridges-example")
            yield Button("Run", variant="primary", id="bridges-go")
        yield CodeEditor(self.code, language="python", id="bridges-code")
        yield RunStatus(id="bridges-status")
        yield Static(id="bridges-error")
        yield BridgesLedger(id="bridges-ledger")
        with TabbedContent(id="bridges-tabs"):
            with TabPane("torch_xla lazy IR", id="tab-ir"):
                yield TextArea("", read_only=True, id="bridges-ir")
            with TabPane("StableHLO: torch_xla export", id="tab-export"):
                yield TextArea("", read_only=True, id="bridges-xla-hlo")
            with TabPane("StableHLO: torchax", id="tab-torchax"):
                yield TextArea("", read_only=True, id="bridges-torchax-hlo")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Two-bridge ledger"
        self.sub_title = "eager · torch_xla · StableHLO export · torchax (xla runtime; not a TPU)"
        self.query_one("#bridges-example").border_title = "example"
        self.query_one("#bridges-code").border_title = "code"
        self.query_one(RunStatus).message = IDLE
        if self.has_sandbox:
            self.action_run()

    @on(Select.Changed, "#bridges-example")
    def load_example(self, event: Select.Changed) -> None:
        """Put the chosen example in the editor and run it."""
        if event.value in EXAMPLES and self.code != EXAMPLES[str(event.value)]:
            self.code = EXAMPLES[str(event.value)]
            self.query_one("#bridges-code", TextArea).text = self.code
            if self.has_sandbox:
                self.action_run()

    @on(Button.Pressed, "#bridges-go")
    def action_run(self) -> None:
        """Run the code through both bridges."""
        self.code = self.query_one("#bridges-code", TextArea).text
        self.hide_error()
        self.run_ledger(self.code)

    @work(exclusive=True)
    async def run_ledger(self, code: str) -> None:
        """The probe on the app's sandbox (compiling for XLA takes a while)."""
        data = await self.run_probe(
            Bridges,
            busy="running eager, torch_xla, its export and torchax (XLA compiles: seconds)",
            hint=IDLE,
            code=code,
        )
        if data is not None:
            self.show(data)

    def show(self, data: Bridges) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one(BridgesLedger).data = data
        self.query_one("#bridges-ir", TextArea).text = data.xla.ir
        self.query_one("#bridges-xla-hlo", TextArea).text = data.xla.stablehlo
        self.query_one("#bridges-torchax-hlo", TextArea).text = data.torchax.stablehlo
        self.query_one(RunStatus).message = IDLE
