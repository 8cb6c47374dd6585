"""Lab: the parameter & memory ledger. Type a module; see what it owns and what it costs.

The module is built in the sandbox on the ``meta`` device (``tutor.probes.ledger:ledger``), so
even a model too big for memory can be counted.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Input, Label, Select, Static, TextArea

from tutor.probes.data_ledger import Ledger, parse_shape
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.ledger.ledger_table import LedgerTable
from tutor.ui.labs.ledger.ledger_totals import LedgerTotals
from tutor.ui.widgets.code_editor import CodeEditor
from tutor.ui.widgets.key_footer import KeyFooter

#: example name -> code the learner can start from (counted for real when chosen)
EXAMPLES: dict[str, str] = {
    "MLP 784-256-128-10": (
        "nn.Sequential(\n    nn.Flatten(),\n    nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),\n"
        "    nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.2),\n    nn.Linear(128, 10),\n)"
    ),
    "MLP + BatchNorm1d": (
        "nn.Sequential(\n    nn.Linear(784, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),\n"
        "    nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.2),\n"
        "    nn.Linear(128, 10),\n)"
    ),
    "residual net": (
        "class Block(nn.Module):\n    def __init__(self, d):\n        super().__init__()\n"
        "        self.lin = nn.Linear(d, d)\n        self.norm = nn.LayerNorm(d)\n\n"
        "    def forward(self, x):\n        return x + self.norm(self.lin(x)).relu()\n\n"
        "class ResidualNet(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.blocks = nn.Sequential(*[Block(128) for _ in range(4)])\n"
        "        self.head = nn.Linear(128, 10)\n\n"
        "    def forward(self, x):\n        return self.head(self.blocks(x))\n\nResidualNet()"
    ),
    "small conv net": (
        "nn.Sequential(\n    nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),\n"
        "    nn.Flatten(), nn.Linear(16 * 14 * 14, 10),\n)"
    ),
    "Linear(4, 3)": "nn.Linear(4, 3)",
}


class LedgerLab(LabScreen):
    """A module editor over a table of its modules and a panel of totals.

    Preset keys: ``expr`` (the code; its last line builds the module), ``batch``,
    ``input_shape`` (one sample, e.g. ``784`` or ``3,32,32``).
    """

    LAB = "ledger"
    CSS_PATH = Path(__file__).with_name("ledger.tcss")
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+r", "count", "Count", priority=True),
    ]

    def __init__(
        self, preset: dict[str, str] | None = None, *, ledger: Ledger | None = None
    ) -> None:
        """``ledger``: a recorded ledger to show instead of asking the sandbox at start."""
        super().__init__()
        self.preset = dict(preset or {})
        self.ledger: Ledger | None = ledger
        """the last ledger counted (None until one is)."""

    def compose(self) -> ComposeResult:
        code = self.preset.get("expr") or next(iter(EXAMPLES.values()))
        yield Header()
        with Horizontal(id="ledger-top"):
            yield CodeEditor.code_editor(code, language="python", soft_wrap=True, id="ledger-code")
            with Vertical(id="ledger-options"):
                yield Select(
                    [(name, name) for name in EXAMPLES],
                    prompt="examples",
                    compact=True,
                    id="ledger-example",
                )
                yield Label("batch")
                yield Input(self.preset.get("batch", "64"), compact=True, id="ledger-batch")
                yield Label("input shape (one sample)")
                yield Input(
                    self.preset.get("input_shape", ""),
                    placeholder="from 1st layer",
                    compact=True,
                    id="ledger-shape",
                )
        with Horizontal(id="ledger-body"):
            yield LedgerTable(id="ledger-table")
            yield LedgerTotals(id="ledger-totals")
        yield Static(id="ledger-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = self.lab.title
        self.query_one("#ledger-code").border_title = "module (last line builds it; ctrl+r counts)"
        self.query_one(LedgerTotals).border_title = "totals"
        if self.ledger is None:
            self.action_count()
        else:
            self.show_ledger(self.ledger)

    def action_count(self) -> None:
        """Count the module in the editor."""
        self.count()

    @work(exclusive=True)
    async def count(self) -> None:
        """Build the module in the sandbox and fill the table and totals."""
        status = self.query_one("#ledger-status", Static)
        try:
            batch = int(self.query_one("#ledger-batch", Input).value.strip() or "64")
            shape_text = self.query_one("#ledger-shape", Input).value.strip()
            shape = parse_shape(shape_text) if shape_text else None
        except ValueError as err:
            self._error(str(err) if "shape" in str(err) else "the batch must be a whole number")
            return
        code = self.query_one("#ledger-code", TextArea).text
        status.set_class(False, "-error")
        status.update("counting in the sandbox…")
        kwargs: dict[str, object] = {"code": code, "batch": batch}
        if shape:
            kwargs["input_shape"] = shape
        ledger, error = await self.ask(Ledger, **kwargs)
        if ledger is None:
            # the probe's own ValueErrors are plain sentences ("syntax error on line 1: ...")
            self._error(error.removeprefix("ValueError: "))
            return
        self.show_ledger(ledger)

    def show_ledger(self, ledger: Ledger) -> None:
        """Fill the table and the totals from ``ledger``."""
        self.ledger = ledger
        self.query_one(LedgerTable).show(ledger)
        self.query_one(LedgerTotals).ledger = ledger
        note = ledger.activation_note
        status = self.query_one("#ledger-status", Static)
        status.set_class(bool(note), "-error")
        status.update(
            Text(f"activations: {note}" if note else f"{ledger.kind}: {ledger.total:,} parameters")
        )

    def _error(self, message: str) -> None:
        """Say what went wrong; the last good ledger stays on screen."""
        status = self.query_one("#ledger-status", Static)
        status.set_class(True, "-error")
        status.update(Text(message))

    @on(Select.Changed, "#ledger-example")
    def _example(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value in EXAMPLES:
            self.query_one("#ledger-code", TextArea).text = EXAMPLES[event.value]
            self.count()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.count()
