"""The graph viewer lab: type a model and its example inputs, see the ATen graph
``torch.export`` records, its signature, and what ``run_decompositions()`` turns each op into."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Static, TextArea

from tutor.probes.data_graph import GraphView
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.graph.graph_tables import ROLE_STYLE, NodeTable, OpDiffTable
from tutor.ui.widgets.code_editor import CodeEditor
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

DEFAULT_CODE = (
    "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\n"
    "args = (torch.randn(3, 4),)"
)


def signature_text(data: GraphView) -> Text:
    """The graph signature, one line per kind of input or output."""
    sig = data.signature
    rows = [
        ("parameters", sig.parameters, ROLE_STYLE["parameter"]),
        ("buffers", sig.buffers, ROLE_STYLE["buffer"]),
        ("user inputs", sig.user_inputs, ROLE_STYLE["input"]),
        ("user outputs", sig.user_outputs, "green"),
    ]
    text = Text()
    for i, (label, names, style) in enumerate(rows):
        text.append(f"{label:13}", style=style)
        text.append(", ".join(names) or "-")
        if i < len(rows) - 1:
            text.append("\n")
    return text


class GraphLab(LabScreen):
    """The graph viewer. Preset keys: ``code`` (defines ``model`` and ``args``), or ``setup``
    (a drill's setup, used as the starting code)."""

    LAB = "graph"
    CSS_PATH = Path(__file__).with_name("graph.tcss")
    ERROR_LINE = "#graph-error"
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+r", "run", "Export", priority=True),
        Binding("e", "edit", "Edit code"),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        self.code = preset.get("code") or preset.get("setup") or DEFAULT_CODE
        """The code last exported."""
        self.data: GraphView | None = None
        """The last graph shown."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield CodeEditor(self.code, language="python", id="graph-code")
        yield RunStatus(id="graph-status")
        yield Static(id="graph-error")
        with Horizontal(id="graph-body"):
            yield NodeTable(id="graph-nodes")
            with Vertical(id="graph-side"):
                yield Static(id="graph-signature")
                yield OpDiffTable(id="graph-ops")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Graph viewer"
        self.query_one("#graph-code").border_title = "define model and args · ctrl+r exports"
        self.query_one("#graph-nodes").border_title = "torch.export graph"
        self.query_one("#graph-signature").border_title = "graph signature"
        self.query_one("#graph-ops").border_title = "ops: export → run_decompositions()"
        if self.has_sandbox:
            self.action_run()

    def action_run(self) -> None:
        """Export the code in the editor."""
        self.code = self.query_one("#graph-code", TextArea).text
        if self.code.strip():
            self.probe()

    @work(exclusive=True)
    async def probe(self) -> None:
        """Export the current code in the sandbox."""
        data = await self.run_probe(
            GraphView,
            busy="exporting and decomposing",
            hint="fix the code and press ctrl+r",
            code=self.code,
        )
        if data is not None:
            self.show(data)

    def show(self, data: GraphView) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.data = data
        self.hide_error()
        self.query_one(NodeTable).show(data)
        self.query_one(OpDiffTable).show(data)
        self.query_one("#graph-signature", Static).update(signature_text(data))
        calls = sum(data.ops.values())
        core = sum(data.decomposed_ops.values())
        self.query_one(
            RunStatus
        ).message = (
            f"{len(data.nodes)} nodes · {calls} ATen calls exported, {core} after decomposition"
        )
        self.query_one(NodeTable).focus()

    def action_edit(self) -> None:
        self.query_one("#graph-code", TextArea).focus()

    @on(TextArea.Changed)
    def edited(self) -> None:
        self.hide_error()
