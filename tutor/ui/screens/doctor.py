"""The doctor screen: runtime, torch, backends and containment, as `tutor doctor` reports it,
gathered in the app's own sandbox and drawn step by step as each check completes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from tutor.ui.services import services
from tutor.ui.widgets.doctor_view import ReportView
from tutor.ui.widgets.key_footer import KeyFooter


class DoctorScreen(Screen[None]):
    """Shows a doctor report; gathers it in the app's sandbox unless one is given (tests,
    replays), redrawing it after each step."""

    CSS_PATH = Path(__file__).with_name("doctor.tcss")

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
        yield KeyFooter()

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

    @work(exclusive=True, exit_on_error=False)
    async def _gather(self) -> None:
        from tutor.sandbox.doctor import doctor_progress

        app = services(self)
        view = self.query_one(ReportView)
        try:
            async for report in doctor_progress(app.sandbox, app.settings.runtime):
                view.report = report
        except Exception as exc:
            view.report = {"error": f"{type(exc).__name__}: {exc}"}

    def action_back(self) -> None:
        self.dismiss()
