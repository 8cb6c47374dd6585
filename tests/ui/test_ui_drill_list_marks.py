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
        assert "✓ mastered  ◐ tried  ○ new" in head.replace("\xa0", " ")
        listing = app.screen.query_one(OptionList)
        marks = {option.id: str(option.prompt)[0] for option in listing.options if option.id}
        assert marks["fixture-basics/row-strides"] == "✓"
        assert marks["fixture-basics/step-order"] == "◐"
        assert set(marks.values()) <= {"✓", "◐", "○"} and "○" in marks.values()


async def test_a_long_title_keeps_the_kinds_in_one_column(make_app, catalog):
    pack = catalog.pack("fixture-basics")
    long = "A title longer than the forty columns the list used to give"
    pack.drills[0] = pack.drills[0].model_copy(update={"title": long})
    app = make_app(catalog=catalog, warm_sandbox=False)
    async with app.run_test(size=(120, 24)) as pilot:
        app.push_screen(DrillListScreen(1))
        await pilot.pause()
        listing = app.screen.query_one(OptionList)
        rows = [str(option.prompt) for option in listing.options if option.id]
        assert any(long in row for row in rows)
        kinds = ("predict", "order", "choice", "code", "fix")
        columns = {min(row.find(f" {k} ") for k in kinds if f" {k} " in row) for row in rows}
        assert len(columns) == 1, rows
