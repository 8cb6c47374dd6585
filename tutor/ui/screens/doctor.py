"""The doctor screen: runtime, torch, backends and containment, as `tutor doctor` reports it."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from tutor.ui.widgets.doctor_view import ReportView


def gather_report(runtime: str | None) -> dict[str, Any]:
    """Run the sandbox's doctor (blocking: starts a runtime of its own and self-tests it)."""
    from tutor.sandbox.runtimes import doctor_report

    return doctor_report(runtime)


class DoctorScreen(Screen[None]):
    """Shows a doctor report; gathers it in a thread unless one is given (tests, replays)."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("g", "gather", "Check again"),
    ]

    def __init__(self, report: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.given = report

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="doctor-body"):
            yield Static(
                "What the sandbox runs your code with, and how it is contained "
                "(the same as tutor doctor says). g checks again.",
                id="doctor-intro",
            )
            yield ReportView(id="doctor-report")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Doctor"
        view = self.query_one(ReportView)
        if self.given is not None:
            view.report = self.given
        else:
            self.action_gather()

    def action_gather(self) -> None:
        self.query_one(ReportView).report = None
        self._gather()

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _gather(self) -> None:
        runtime = getattr(self.app.settings, "runtime", None)
        try:
            report = gather_report(runtime)
        except Exception as exc:
            report = {"error": f"{type(exc).__name__}: {exc}"}
        self.app.call_from_thread(setattr, self.query_one(ReportView), "report", report)

    def action_back(self) -> None:
        self.dismiss()
