"""The drill list: one mark per state (mastered, tried, new), and a legend that reads as one."""

from __future__ import annotations

from textual.widgets import OptionList, Static

from tutor.ui.screens.drills import DrillListScreen


async def test_marks_and_legend(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.store.record_attempt("fixture-basics/row-strides", 1, "(5, 1)", True, "correct", 0, 3.0)
        app.store.record_attempt("fixture-basics/step-order", 1, "x", False, "wrong", 0, 3.0)
        app.push_screen(DrillListScreen(1))
        await pilot.pause()
        head = str(app.screen.query_one("#drills-head", Static).render())
        assert "✓ mastered   ◐ tried   ○ new" in head
        listing = app.screen.query_one(OptionList)
        marks = {option.id: str(option.prompt)[0] for option in listing.options if option.id}
        assert marks["fixture-basics/row-strides"] == "✓"
        assert marks["fixture-basics/step-order"] == "◐"
        assert set(marks.values()) <= {"✓", "◐", "○"} and "○" in marks.values()
