"""The guard lab's panels: breaks and recompiles as tables, the guard set and each graph's ops
as text."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tutor.probes.data_guards import GuardReport


class EventTable(Static):
    """Graph breaks (where, why) then recompiles (which call, which guard failed), as a table
    whose "why" column wraps at any width (a cell cut at the panel's edge lost the reason)."""

    rows: list[tuple[str, str, str]] = []
    """The rows shown: (event, where, why)."""

    def show(self, data: GuardReport | None) -> None:
        """Fill the table from ``data`` (empty it when None)."""
        rows: list[tuple[str, str, str]] = []
        if data is not None:
            for brk in data.graph_breaks:
                rows.append(("break", f"line {brk.line}" if brk.line else "?", brk.reason))
            for rec in data.recompiles:
                rows.append(("recompile", f"call {rec.call}", rec.reason))
            if not rows:
                rows.append(("none", "", "one capture served every call"))
        self.rows = rows
        table = Table(box=None, expand=True, pad_edge=False, header_style="bold")
        table.add_column("event", no_wrap=True)
        table.add_column("where", no_wrap=True)
        table.add_column("why", ratio=1, overflow="fold")
        for event, where, why in rows:
            table.add_row(Text(event, style=EVENT_STYLE[event]), where, Text(why))
        self.update(table)


EVENT_STYLE = {"break": "red", "recompile": "yellow", "none": "green"}


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
