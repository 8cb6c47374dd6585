"""Snapshot tests: fixed terminal sizes, the fixture catalog, a fixed seed, a fresh TUTOR_HOME.
Everything time- or host-dependent is left out (the doctor renders a recorded report)."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, OptionList, TextArea

from tutor.ui.messages import OpenDrill
from tutor.ui.screens.doctor import DoctorScreen
from tutor.ui.widgets.order_list import OrderList
from tutor.ui.widgets.snippet import SnippetView

FIXTURES = Path(__file__).parent / "fixtures"
PACK = "fixture-basics"


async def settle(pilot) -> None:
    """Wait for workers, stop cursor blinking, drop toasts."""
    app = pilot.app
    await app.workers.wait_for_complete()
    await pilot.pause()
    for widget in app.screen.query("Input, TextArea"):
        widget.cursor_blink = False
        if isinstance(widget, TextArea):
            # TextArea's line cache files a line drawn while the cursor had blinked out under
            # the same key as a line with blinking off: on a slow run the steady cursor would
            # not be drawn. A style update empties that cache.
            widget.notify_style_update()
    app.clear_notifications()
    await pilot.pause()


async def drill(pilot, name: str) -> None:
    await pilot.pause()
    pilot.app.post_message(OpenDrill(f"{PACK}/{name}"))
    await pilot.pause()
    await pilot.pause()


def test_home_fresh(snap_compare, make_app):
    assert snap_compare(make_app(warm_sandbox=False), terminal_size=(120, 36))


def test_home_80x24(snap_compare, make_app):
    assert snap_compare(make_app(warm_sandbox=False), terminal_size=(80, 24))


def test_lesson_with_a_live_snippet(snap_compare, make_app):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        pilot.app.screen.query(SnippetView).first().focus()
        await pilot.press("r")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(120, 36), run_before=run_before)


def test_predict_wrong_with_hint(snap_compare, make_app):
    async def run_before(pilot):
        await drill(pilot, "row-strides")
        await pilot.press(*"(1, 1)", "enter")
        await settle(pilot)
        await pilot.press("ctrl+t")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 32), run_before=run_before)


def test_order_solved(snap_compare, make_app, catalog):
    truth = list(catalog.drill(f"{PACK}/step-order").drill.lines)

    async def run_before(pilot):
        await drill(pilot, "step-order")
        pilot.app.screen.query_one(OrderList).lines = truth
        await pilot.press("ctrl+s")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 32), run_before=run_before)


def test_choice_wrong_says_why(snap_compare, make_app):
    async def run_before(pilot):
        await drill(pilot, "no-grad-does")
        options = pilot.app.screen.query_one(OptionList)
        texts = [str(o.prompt) for o in options.options]
        options.highlighted = texts.index("Sets every .grad to zero.")
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 32), run_before=run_before)


def test_code_solved_shows_the_explanation(snap_compare, make_app):
    async def run_before(pilot):
        await drill(pilot, "outer")
        pilot.app.screen.query_one(TextArea).load_text(
            "def outer(a, b):\n    return a[:, None] * b[None, :]\n"
        )
        await pilot.press("ctrl+s")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 32), run_before=run_before)


def test_fix_error_feedback(snap_compare, make_app):
    async def run_before(pilot):
        await drill(pilot, "fix-grad")
        await pilot.press("ctrl+s")  # the broken starter as it is
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 32), run_before=run_before)


def test_review_list(snap_compare, make_app):
    from datetime import UTC, datetime, timedelta

    from tutor.progress.store import Store

    store = Store()
    at = datetime(2026, 1, 1, tzinfo=UTC) - timedelta(days=40)
    store.record_attempt(f"{PACK}/row-strides", 1, "(5, 1)", True, "correct", 0, 4.0, at=at)
    store.record_attempt(f"{PACK}/step-order", 2, "x", False, "wrong", 0, 4.0, at=at)

    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("r")
        await settle(pilot)

    app = make_app(store=store, warm_sandbox=False)
    assert snap_compare(app, terminal_size=(100, 24), run_before=run_before)


def test_doctor_from_a_recorded_report(snap_compare, make_app):
    report = json.loads((FIXTURES / "doctor.json").read_text())

    async def run_before(pilot):
        await pilot.pause()
        pilot.app.push_screen(DoctorScreen(report))
        await settle(pilot)

    app = make_app(warm_sandbox=False)
    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)


def test_doctor_part_way(snap_compare, make_app):
    from tests.ui.test_ui_doctor import part_way

    report = part_way(json.loads((FIXTURES / "doctor.json").read_text()), 2)

    async def run_before(pilot):
        await pilot.pause()
        pilot.app.push_screen(DoctorScreen(report))
        await settle(pilot)

    app = make_app(warm_sandbox=False)
    assert snap_compare(app, terminal_size=(100, 40), run_before=run_before)


def test_help_dialog(snap_compare, make_app):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(
        make_app(warm_sandbox=False), terminal_size=(100, 32), run_before=run_before
    )


def test_predict_input_empty(snap_compare, make_app):
    async def run_before(pilot):
        await drill(pilot, "row-strides")
        assert isinstance(pilot.app.screen.focused, Input)
        await settle(pilot)

    assert snap_compare(make_app(warm_sandbox=False), terminal_size=(80, 24), run_before=run_before)


def test_code_drill_light_theme(snap_compare, make_app, monkeypatch):
    monkeypatch.setenv("TUTOR_THEME", "light")

    async def run_before(pilot):
        await drill(pilot, "fix-grad")
        await settle(pilot)

    app = make_app(warm_sandbox=False)
    assert snap_compare(app, terminal_size=(100, 28), run_before=run_before)


def test_lesson_long_code_80x24(snap_compare, long_lesson_app):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(long_lesson_app, terminal_size=(80, 24), run_before=run_before)
