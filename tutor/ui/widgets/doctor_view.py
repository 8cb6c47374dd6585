"""Draws one runtime's doctor report (``tutor.sandbox.doctor``), complete or part-way (its
``waiting`` step and ``pending`` checks): the ``ReportView`` widget of the doctor screen and the
renderables it is made of."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tutor.ui.widgets.report import render_report


def mark(ok: bool | None) -> Text:
    """✓ / ✗ in the theme's success and error colours."""
    return Text("✓", style="bold green") if ok else Text("✗", style="bold red")


def heading(text: str) -> Text:
    return Text(f"\n{text}", style="bold underline")


def runtime_table(report: dict[str, Any]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    command = report.get("command")
    rows = [
        ("runtime", report.get("runtime")),
        ("torch", report.get("torch")),
        ("python", report.get("python")),
        ("executable", report.get("executable")),
        ("command", " ".join(command) if isinstance(command, list) else command),
    ]
    for label, value in rows:
        if value:
            table.add_row(label, str(value))
    return table


def backends_table(backends: dict[str, Any]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for name, info in backends.items():
        info = info if isinstance(info, dict) else {"available": bool(info)}
        extra = "; ".join(
            f"{k} {v}" if k != "detail" else str(v)
            for k, v in info.items()
            if k != "available" and v not in (None, "")
        )
        table.add_row(mark(info.get("available")), name, Text(extra, style="dim"))
    return table


def containment_table(containment: dict[str, Any]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column()
    for line in containment.get("described") or containment.get("active") or []:
        table.add_row(mark(True), str(line))
    for line in containment.get("missing") or []:
        table.add_row(mark(False), Text(str(line), style="bold"))
    return table


def selftest_table(checks: list[dict[str, Any]], pending: list[str] | None = None) -> Table:
    """The checks done (✓/✗ with what was seen), then those still to run (dimmed; the first
    is running)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(style="bold")
    table.add_column(style="dim")
    for check in checks:
        table.add_row(mark(check.get("ok")), str(check.get("name")), str(check.get("detail", "")))
    for index, name in enumerate(pending or []):
        table.add_row(
            Text("…" if index == 0 else "·", style="dim"),
            Text(str(name), style="dim"),
            "running" if index == 0 else "",
        )
    return table


def render_doctor(report: dict[str, Any]) -> RenderableType:
    """The report as sections; an unexpected shape falls back to a generic rendering."""
    if "runtime" not in report and "error" not in report:
        return render_report(report)
    verdict = report.get("ok")
    if report.get("waiting"):
        summary = Text(f"… {report['waiting']}", style="italic")
    else:
        summary = Text.assemble(
            mark(verdict),
            " all checks pass" if verdict else " something needs attention (see below)",
        )
    parts: list[RenderableType] = [
        summary,
        heading("Runtime"),
        runtime_table(report),
    ]
    if report.get("error"):
        parts += [heading("Error"), Text(str(report["error"]), style="bold red")]
    if "backends" in report:
        parts += [heading("Backends"), backends_table(report["backends"] or {})]
        if report.get("backends_error"):
            parts.append(Text(str(report["backends_error"]), style="red"))
    if "containment" in report:
        parts += [heading("Containment"), containment_table(report["containment"])]
    if report.get("selftest") or report.get("pending"):
        table = selftest_table(report.get("selftest") or [], report.get("pending"))
        parts += [heading("Self-test of the sandbox"), table]
    return Group(*parts)


class ReportView(Static):
    """Shows ``report`` (a doctor report, or any JSON-like dict)."""

    report: reactive[dict[str, Any] | None] = reactive(None)
    """The report to draw (None while it is being gathered)."""

    def watch_report(self, report: dict[str, Any] | None) -> None:
        if report is None:
            self.update(Text("asking the runtime… (this starts torch in the sandbox)", "italic"))
        else:
            self.update(render_doctor(report))
