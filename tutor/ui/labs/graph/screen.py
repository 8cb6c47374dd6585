"""The graph viewer lab: type a model and its example inputs, see the ATen graph
``torch.export`` records, its signature, and what ``run_decompositions()`` turns each op into."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static, TextArea

from tutor.content.labs import Value
from tutor.probes.data_graph import GraphView
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.graph.graph_tables import ROLE_STYLE, NodeTable, OpDiffTable


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


class GraphLab(LabScreen[GraphView]):
    """The graph viewer. Preset keys: ``code`` (defines ``model`` and ``args``), or ``setup``
    (a drill's setup, used as the starting code)."""

    HINT = "fix the code and press ctrl+r"
    RUN_KEY = "Export"
    BINDINGS = [
        Binding("e", "edit", "Edit code"),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__(preset)
        self.data: GraphView | None = None
        """The last graph shown."""

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="graph-body"):
            yield NodeTable(id="graph-nodes")
            with Vertical(id="graph-side"):
                yield Static(id="graph-signature")
                yield OpDiffTable(id="graph-ops")

    def mounted(self) -> None:
        self.query_one("#graph-nodes").border_title = "torch.export graph"
        self.query_one("#graph-signature").border_title = "graph signature"
        self.query_one("#graph-ops").border_title = "ops: export → run_decompositions()"

    def busy(self, values: dict[str, Value]) -> str:
        return "exporting and decomposing"

    def show(self, data: GraphView) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.data = data
        self.hide_error()
        self.query_one(NodeTable).show(data)
        self.query_one(OpDiffTable).show(data)
        self.query_one("#graph-signature", Static).update(signature_text(data))
        calls = sum(data.ops.values())
        core = sum(data.decomposed_ops.values())
        self.say(
            f"{len(data.nodes)} nodes · {calls} ATen calls exported, {core} after decomposition"
        )
        self.query_one(NodeTable).focus()

    def action_edit(self) -> None:
        self.query_one("#graph-code", TextArea).focus()
