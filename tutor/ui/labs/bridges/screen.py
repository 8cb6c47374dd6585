"""The two-bridge ledger (chapter 10): one model through eager torch, torch_xla's lazy tensors,
torch_xla's StableHLO export and torchax, outputs compared with eager before any IR is shown.
The probe runs on the xla runtime; elsewhere the lab says how to get it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Select, TabbedContent, TabPane, TextArea

from tutor.content.labs import Value
from tutor.probes.data_bridges import DEFAULT_CODE, SUM_CODE, Bridges
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.bridges.bridges_ledger import BridgesLedger

EXAMPLES = {"a small MLP": DEFAULT_CODE, "a full x.sum()": SUM_CODE}


class BridgesLab(LabScreen[Bridges]):
    """The two-bridge ledger. Preset keys: ``code``, or ``example`` (a key of ``EXAMPLES``)."""

    RUN_KEY = "Run"
    RUN_BUTTON = True
    IDLE = HINT = "edit the code (it defines model, args and optionally forward), then ctrl+r"
    SUB_TITLE = "eager · torch_xla · StableHLO export · torchax (xla runtime; not a TPU)"

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__(preset)
        example = self.preset.get("example", "")
        self.example = example if example in EXAMPLES else next(iter(EXAMPLES))
        """The example chosen."""
        if "code" not in self.preset:
            self.texts["code"] = EXAMPLES[self.example]

    def compose_controls(self) -> ComposeResult:
        """The example to start from and the run button, then the code."""
        with Horizontal(id="bridges-controls", classes="lab-controls"):
            options = [(name, name) for name in EXAMPLES]
            example = Select(options, value=self.example, allow_blank=False, id="bridges-example")
            example.border_title = "example"
            yield example
            yield self.run_button()
        yield self.control("code")

    def compose_body(self) -> ComposeResult:
        """The ledger, then the IR in tabs; the two scroll together, so on a short terminal
        the IR keeps rows enough to read (PageDown brings it up)."""
        with VerticalScroll(id="bridges-main"):
            yield BridgesLedger(id="bridges-ledger")
            with TabbedContent(id="bridges-tabs"):
                with TabPane("torch_xla lazy IR", id="tab-ir"):
                    yield TextArea("", read_only=True, id="bridges-ir")
                with TabPane("StableHLO: torch_xla export", id="tab-export"):
                    yield TextArea("", read_only=True, id="bridges-xla-hlo")
                with TabPane("StableHLO: torchax", id="tab-torchax"):
                    yield TextArea("", read_only=True, id="bridges-torchax-hlo")

    @on(Select.Changed, "#bridges-example")
    def load_example(self, event: Select.Changed) -> None:
        """Put the chosen example in the editor and run it."""
        editor = self.query_one("#bridges-code", TextArea)
        if event.value in EXAMPLES and editor.text != EXAMPLES[str(event.value)]:
            editor.text = EXAMPLES[str(event.value)]
            if self.has_sandbox:
                self.action_run()

    def busy(self, values: dict[str, Value]) -> str:
        return "running eager, torch_xla, its export and torchax (XLA compiles: seconds)"

    def show(self, data: Bridges) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one(BridgesLedger).data = data
        self.query_one("#bridges-ir", TextArea).text = data.xla.ir
        self.query_one("#bridges-xla-hlo", TextArea).text = data.xla.stablehlo
        self.query_one("#bridges-torchax-hlo", TextArea).text = data.torchax.stablehlo
        self.say(self.IDLE)
