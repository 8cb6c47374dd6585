"""The graph lab's tables: the exported graph's nodes, and the op histogram before and after
``run_decompositions()``."""

from __future__ import annotations

from rich.text import Text

from tutor.probes.data_graph import GraphView
from tutor.ui.widgets.panels import RowsTable

#: how each node kind is coloured in the node table
OP_STYLE = {"placeholder": "cyan", "call_function": "", "get_attr": "magenta", "output": "green"}
#: how a placeholder's role reads in the target column
ROLE_LABEL = {"parameter": "parameter", "buffer": "buffer", "input": "user input"}
#: how a placeholder's role is coloured
ROLE_STYLE = {"parameter": "yellow", "buffer": "magenta", "input": "cyan"}


class NodeTable(RowsTable[GraphView]):
    """One row per node of the export graph, in graph order: its op kind and target; a
    placeholder shows what the signature says it is (``parameter 0.weight``) in place of its
    target, which is only its name."""

    COLUMNS = (("op", "op"), ("target", "target"))

    def fill(self, data: GraphView) -> None:
        labels = data.placeholder_labels()
        for node in data.nodes:
            if node.name in labels:
                role, source = labels[node.name]
                shown = f"({source})" if role == "input" else source
                target = Text.assemble((ROLE_LABEL[role], ROLE_STYLE[role]), " ", shown)
            else:
                target = Text(node.target)
            self.add_row(Text(node.op, style=OP_STYLE.get(node.op, "")), target)


class OpDiffTable(RowsTable[GraphView]):
    """The op histogram: each ATen target, its count in the exported graph and after
    decomposition to Core ATen."""

    COLUMNS = (
        (Text("export", justify="right"), "before"),
        (Text("core", justify="right"), "after"),
        ("ATen op", "op"),
    )

    def fill(self, data: GraphView) -> None:
        for change in data.diff():
            style = "red" if change.after == 0 else ("green" if change.before == 0 else "")
            self.add_row(
                Text(str(change.before), justify="right"),
                Text(str(change.after), justify="right"),
                Text(change.target, style=style),
            )
