"""The graph lab's tables: the exported graph's nodes, and the op histogram before and after
``run_decompositions()``. A target is torch's own text (``<built-in function getitem>``,
``aten._native_batch_norm_legit_no_training.default``): its column takes the width the others
leave, and a target longer than that wraps onto a second row instead of being cut."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events

from tutor.probes.data_graph import GraphView
from tutor.ui.widgets.panels import RowsTable

GUTTER = 2
"""columns kept for the vertical scrollbar, so a table that comes to scroll wraps no more."""
NARROWEST = 12
"""the last column is never narrower than this (a wider table scrolls sideways)."""


class FillTable(RowsTable[GraphView]):
    """A table whose last column takes the width its other columns leave, each row as tall as
    its wrapped cells; ``cells(data)`` gives the rows. Filled again when its width changes."""

    _shown: GraphView | None = None

    def cells(self, data: GraphView) -> list[tuple[Text, ...]]:
        """The rows of ``data``, one tuple of cells each."""
        raise NotImplementedError

    def show(self, data: GraphView | None) -> None:
        self._shown = data
        super().show(data)

    def fill(self, data: GraphView) -> None:
        rows = self.cells(data)
        columns = self.ordered_columns
        widths = [
            max([cell_len(str(c.label))] + [cell_len(row[i].plain) for row in rows])
            for i, c in enumerate(columns[:-1])
        ]
        padding = 2 * self.cell_padding * len(columns)
        room = self.size.width - sum(widths) - padding - GUTTER
        for column, width in zip(columns, [*widths, max(NARROWEST, room)], strict=True):
            column.width, column.auto_width = width, False
        for row in rows:
            row[-1].overflow = "fold"  # a name with no space is folded, not cut
            self.add_row(*row, height=None)

    def on_resize(self, event: events.Resize) -> None:
        """Fill again at the new width."""
        if self._shown is not None:
            self.call_after_refresh(super().show, self._shown)


#: how each node kind is coloured in the node table
OP_STYLE = {"placeholder": "cyan", "call_function": "", "get_attr": "magenta", "output": "green"}
#: how a placeholder's role reads in the target column
ROLE_LABEL = {"parameter": "parameter", "buffer": "buffer", "input": "user input"}
#: how a placeholder's role is coloured
ROLE_STYLE = {"parameter": "yellow", "buffer": "magenta", "input": "cyan"}


class NodeTable(FillTable):
    """One row per node of the export graph, in graph order: its op kind and target; a
    placeholder shows what the signature says it is (``parameter 0.weight``) in place of its
    target, which is only its name."""

    COLUMNS = (("op", "op"), ("target", "target"))

    def cells(self, data: GraphView) -> list[tuple[Text, ...]]:
        labels = data.placeholder_labels()
        rows: list[tuple[Text, ...]] = []
        for node in data.nodes:
            if node.name in labels:
                role, source = labels[node.name]
                shown = f"({source})" if role == "input" else source
                target = Text.assemble((ROLE_LABEL[role], ROLE_STYLE[role]), " ", shown)
            else:
                target = Text(node.target)
            rows.append((Text(node.op, style=OP_STYLE.get(node.op, "")), target))
        return rows


class OpDiffTable(FillTable):
    """The op histogram: each ATen target, its count in the exported graph and after
    decomposition to Core ATen."""

    COLUMNS = (
        (Text("export", justify="right"), "before"),
        (Text("core", justify="right"), "after"),
        ("ATen op", "op"),
    )

    def cells(self, data: GraphView) -> list[tuple[Text, ...]]:
        rows: list[tuple[Text, ...]] = []
        for change in data.diff():
            style = "red" if change.after == 0 else ("green" if change.before == 0 else "")
            rows.append((
                Text(str(change.before), justify="right"),
                Text(str(change.after), justify="right"),
                Text(change.target, style=style),
            ))  # fmt: skip
        return rows
