"""Lab: the parameter & memory ledger. Type a module; see what it owns and what it costs.

The module is built in the sandbox on the ``meta`` device (``tutor.probes.ledger:ledger``), so
even a model too big for memory can be counted.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Select, Static, TextArea

from tutor.content.labs import Value
from tutor.probes.data_ledger import Ledger
from tutor.probes.lab_defaults import LEDGER_CODE
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.ledger.ledger_table import LedgerTable
from tutor.ui.labs.ledger.ledger_totals import LedgerTotals
from tutor.ui.labs.probe_call import RunFailed

#: example name -> code the learner can start from (counted for real when chosen)
EXAMPLES: dict[str, str] = {
    "MLP 784-256-128-10": LEDGER_CODE,
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


class LedgerLab(LabScreen[Ledger]):
    """A module editor over a table of its modules and a panel of totals.

    Preset keys: ``expr`` (the code; its last line builds the module), ``batch``,
    ``input_shape`` (one sample, e.g. ``784`` or ``3,32,32``).
    """

    COMPACT = True
    EDITOR = {"theme": "monokai", "soft_wrap": True, "show_line_numbers": True}
    ERROR_LINE = "#ledger-status"
    RUN_KEY = "Count"

    def __init__(
        self, preset: dict[str, str] | None = None, *, ledger: Ledger | None = None
    ) -> None:
        """``ledger``: a recorded ledger to show instead of asking the sandbox at start."""
        super().__init__(preset)
        self.ledger: Ledger | None = ledger
        """the last ledger counted (None until one is)."""

    def compose_controls(self) -> ComposeResult:
        """The module's code beside the examples, the batch and one sample's shape."""
        with Horizontal(id="ledger-top"):
            yield self.control("expr")
            with Vertical(id="ledger-options"):
                yield Select(
                    [(name, name) for name in EXAMPLES],
                    prompt="examples",
                    compact=True,
                    id="ledger-example",
                )
                yield from self.controls(["batch", "input_shape"])

    def compose_status(self) -> ComposeResult:
        yield from ()  # the status line is the last line (``compose_body``)

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="ledger-body"):
            yield LedgerTable(id="ledger-table")
            yield LedgerTotals(id="ledger-totals")
        yield Static(id="ledger-status")

    def mounted(self) -> None:
        self.query_one(LedgerTotals).border_title = "totals"
        if self.ledger is not None:
            self.show(self.ledger)

    def busy(self, values: dict[str, Value]) -> str:
        return "counting in the sandbox…"

    def failure(self, err: RunFailed) -> str:
        # the probe's own ValueErrors are plain sentences ("syntax error on line 1: ...")
        return err.detail.removeprefix("ValueError: ")

    def say(self, message: str, *, running: bool = False) -> None:
        status = self.query_one("#ledger-status", Static)
        status.set_class(False, "-shown")
        status.update(Text(message))

    def show(self, data: Ledger) -> None:
        """Fill the table and the totals from ``data``."""
        self.ledger = data
        self.query_one(LedgerTable).show(data)
        self.query_one(LedgerTotals).ledger = data
        note = data.activation_note
        self.say(f"activations: {note}" if note else f"{data.kind}: {data.total:,} parameters")
        self.query_one("#ledger-status", Static).set_class(bool(note), "-shown")

    @on(Select.Changed, "#ledger-example")
    def _example(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value in EXAMPLES:
            self.query_one("#ledger-expr", TextArea).text = EXAMPLES[event.value]
            self.action_run()
