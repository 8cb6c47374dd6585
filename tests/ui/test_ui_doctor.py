"""The doctor screen: the real report gathered in a thread, and a recorded one drawn."""

from __future__ import annotations

import json
from pathlib import Path

from tutor.ui.screens.doctor import DoctorScreen
from tutor.ui.widgets.doctor_view import ReportView, render_doctor

FIXTURES = Path(__file__).parent / "fixtures"


async def test_doctor_gathers_the_real_report_without_blocking(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, DoctorScreen)
        view = app.screen.query_one(ReportView)
        assert view.report is None  # still gathering; the UI is already drawn
        await pilot.press("question_mark", "escape")  # keys work meanwhile
        await app.workers.wait_for_complete()
        await pilot.pause()
        report = view.report
        assert report is not None and "error" not in report, report
        assert report["torch"].startswith("2.")
        assert report["backends"]["cpu"]["available"] is True
        assert report["torch"] in app.export_screenshot()  # drawn on the screen


def test_recorded_report_renders_every_section():
    from rich.console import Console

    report = json.loads((FIXTURES / "doctor.json").read_text())
    console = Console(width=100, record=True, color_system=None)
    console.print(render_doctor(report))
    text = console.export_text()
    for expected in [
        "something needs attention",
        "2.13.0+cpu",
        "torch_xla is not installed",
        "no bubblewrap",
        "network is blocked",
        "Self-test of the sandbox",
    ]:
        assert expected in text
