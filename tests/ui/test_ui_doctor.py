"""The doctor screen: the real report gathered in the app's own sandbox step by step, and a
recorded one drawn."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tutor.ui.screens.doctor import DoctorScreen
from tutor.ui.widgets.doctor_view import ReportView, render_doctor

FIXTURES = Path(__file__).parent / "fixtures"


def runtimes_started_here() -> set[int]:
    """The sandbox runtimes this process started: its own children running the zygote (read
    from /proc, so a runtime started anywhere in this process counts, whatever started it)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"tutor.sandbox.zygote" in command:
            found.add(int(entry.name))
    return found


async def test_doctor_uses_the_apps_sandbox_and_shows_each_check_as_it_completes(
    make_app, monkeypatch
):
    seen: list[dict] = []
    runtimes: set[int] = set()
    draw = ReportView.watch_report
    # runtimes other tests share (session fixtures) are children of this process too
    earlier = runtimes_started_here()

    def drawn(view, report):
        """Each report the view draws, and the runtimes running as it is drawn."""
        seen.append(report)
        runtimes.update(runtimes_started_here() - earlier)
        draw(view, report)

    monkeypatch.setattr(ReportView, "watch_report", drawn)
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()  # the app's sandbox is warm
        runtime = app.sandbox.runtime_pid
        assert runtime is not None and runtimes_started_here() - earlier == {runtime}
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, DoctorScreen)
        view = app.screen.query_one(ReportView)
        await pilot.press("question_mark", "escape")  # keys work meanwhile
        await app.workers.wait_for_complete()
        await pilot.pause()
        report = view.report
        assert report is not None and "error" not in report, report
        assert report["torch"].startswith("2.")
        assert report["backends"]["cpu"]["available"] is True
        assert report["torch"] in app.export_screenshot()  # drawn on the screen
        # every check was shown running, then done, one at a time, in order
        names = [check["name"] for check in report["selftest"]]
        assert len(names) >= 7
        assert seen[1]["waiting"].startswith("starting the runtime")
        steps = [r for r in seen if r and r.get("pending")]
        assert [r["pending"][0] for r in steps] == names
        assert [len(r["selftest"]) for r in steps] == list(range(len(names)))
        assert "waiting" not in report and "pending" not in report
        # no second runtime: the one the app started served every step
        assert runtimes == {runtime} and app.sandbox.runtime_pid == runtime


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


def part_way(report: dict, done: int) -> dict:
    """The recorded report as the screen holds it while check number ``done`` runs."""
    checks = report["selftest"]
    pending = [check["name"] for check in checks[done:]]
    return report | {
        "selftest": checks[:done],
        "pending": pending,
        "waiting": f"self-test: {pending[0]}",
    }


def test_a_report_part_way_shows_the_running_check_and_those_to_come():
    from rich.console import Console

    report = part_way(json.loads((FIXTURES / "doctor.json").read_text()), 2)
    console = Console(width=100, record=True, color_system=None)
    console.print(render_doctor(report))
    lines = console.export_text().splitlines()
    assert lines[0] == "… self-test: memory limit stops a huge allocation"
    assert not any("something needs attention" in line for line in lines)
    done = next(line for line in lines if "timeout stops an infinite loop" in line)
    running = next(line for line in lines if "memory limit stops" in line and "running" in line)
    later = next(line for line in lines if "network is blocked" in line)
    assert done.lstrip().startswith("✓") and "timed out after" in done
    assert running.lstrip().startswith("…")
    assert later.lstrip().startswith("·") and "connection" not in later
