"""Draws a nested report (what `tutor doctor --json` prints) as headed sections and tables."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text


def cell(value: Any) -> Text:
    """One value as text: booleans as ✓/✗, None as —, lists joined."""
    if value is True:
        return Text("✓ yes", style="green")
    if value is False:
        return Text("✗ no", style="red")
    if value is None:
        return Text("—", style="dim")
    if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
        return Text(", ".join(map(str, value)) or "—")
    if isinstance(value, dict):
        return Text("; ".join(f"{k}: {v}" for k, v in value.items()))
    return Text(str(value))


def title_of(key: str) -> str:
    """``self_test`` -> ``Self test`` (only the first letter changes: ``cuda`` stays)."""
    words = key.replace("_", " ")
    return words[:1].upper() + words[1:]


def label_of(key: str) -> str:
    """A row label: the key as written, with spaces for underscores."""
    return key.replace("_", " ")


def section(key: str, value: Any) -> RenderableType:
    """One top-level entry of the report."""
    head = Text(title_of(key), style="bold underline")
    if isinstance(value, dict):
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for k, v in value.items():
            table.add_row(label_of(str(k)), cell(v))
        return Group(head, table, Text(""))
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        columns = list(dict.fromkeys(k for row in value for k in row))
        table = Table(*[label_of(c) for c in columns], show_edge=False, header_style="bold")
        for row in value:
            table.add_row(*[cell(row.get(c)) for c in columns])
        return Group(head, table, Text(""))
    return Group(Text.assemble((title_of(key), "bold"), "  ", cell(value)), Text(""))


def render_report(report: dict[str, Any]) -> RenderableType:
    """The whole report: scalars first (as one table), then a section per nested entry."""
    scalars = {k: v for k, v in report.items() if not isinstance(v, dict | list)}
    nested = {k: v for k, v in report.items() if isinstance(v, dict | list)}
    parts: list[RenderableType] = []
    if scalars:
        parts.append(section("summary", scalars))
    parts.extend(section(k, v) for k, v in nested.items())
    return Group(*parts)
