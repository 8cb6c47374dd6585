"""The guard lab's panels: breaks and recompiles as tables, the guard set and each graph's ops
as text."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from tutor.probes.data_guards import GuardReport


class EventTable(DataTable):
    """Graph breaks (where, why) then recompiles (which call, which guard failed)."""

    def on_mount(self) -> None:
        """Set up the columns."""
        self.cursor_type = "row"
        self.zebra_stripes = True
        self.add_column("event", key="event")
        self.add_column("where", key="where")
        self.add_column("why", key="why")

    def show(self, data: GuardReport | None) -> None:
        """Fill the table from ``data`` (empty it when None)."""
        self.clear()
        if data is None:
            return
        for brk in data.graph_breaks:
            where = f"line {brk.line}" if brk.line else "?"
            self.add_row(Text("break", style="red"), where, brk.reason)
        for rec in data.recompiles:
            self.add_row(Text("recompile", style="yellow"), f"call {rec.call}", rec.reason)
        if not data.graph_breaks and not data.recompiles:
            self.add_row(Text("none", style="green"), "", "one capture served every call")


def guards_text(data: GuardReport) -> Text:
    """The guard set, one guard per line, its kind coloured."""
    text = Text()
    for i, guard in enumerate(data.guards):
        kind, _, rest = guard.partition(": ")
        text.append(kind, style="cyan")
        text.append(f" {rest}")
        if i < len(data.guards) - 1:
            text.append("\n")
    return text


def ops_text(data: GuardReport) -> Text:
    """Each graph of the first call and its ops."""
    text = Text()
    for i, ops in enumerate(data.ops):
        text.append(f"graph {i}  ", style="bold")
        text.append(", ".join(ops) or "(no ops)")
        if i < len(data.ops) - 1:
            text.append("\n")
    return text
