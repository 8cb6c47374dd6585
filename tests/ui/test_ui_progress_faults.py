"""The TUI when progress cannot be saved: the verdict always shows, the learner is told, and a
damaged progress file stops nothing (a dialog offers a fresh start that keeps the old file)."""

from __future__ import annotations

from textual.widgets import Button, OptionList, Static

from tutor.progress.opening import open_store
from tutor.progress.store import Store
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.screens.home import HomeScreen
from tutor.ui.screens.store_problem import StoreProblemScreen
from tutor.ui.widgets.feedback import FeedbackPanel

DRILL = "fixture-basics/no-grad-does"
RIGHT = "Stops recording operations on the tape inside the block."


async def answer_right(app, pilot) -> None:
    app.post_message(OpenDrill(DRILL, []))
    await pilot.pause()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, DrillScreen)
    options = screen.query_one(OptionList)
    options.highlighted = [str(o.prompt) for o in options.options].index(RIGHT)
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()


def messages(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_a_full_disk_still_shows_the_verdict_and_says_the_attempt_is_kept(make_app, tiny_fs):
    store = Store(tiny_fs.path / "progress.db")
    app = make_app(store=store, warm_sandbox=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        filler = tiny_fs.fill()
        await answer_right(app, pilot)
        grade = app.screen.query_one(FeedbackPanel).grade
        assert grade is not None and grade.correct  # the verdict is drawn
        assert any("could not be saved: the disk is full" in m for m in messages(app))
        assert store.pending == 1
        filler.unlink()
        app.clear_notifications()
        await answer_right(app, pilot)
        assert any("Saved 1 attempt" in m for m in messages(app))
        assert len(store.attempts()) == 2 and store.pending == 0


async def test_a_damaged_file_offers_a_fresh_start_that_keeps_it(make_app, tutor_home):
    path = tutor_home / "progress.db"
    path.write_bytes(b"this is not a database " * 50)
    store, problem = open_store(path)
    app = make_app(store=store, store_problem=problem, warm_sandbox=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, StoreProblemScreen)
        why = str(app.screen.query_one("#store-problem-why", Static).render())
        assert "is damaged or not a progress database" in why and str(path) in why
        await pilot.press("escape")  # carry on: the tutor works on a stand-in
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await answer_right(app, pilot)
        assert app.screen.query_one(FeedbackPanel).grade.correct
        assert app.store.mastered(DRILL) and not app.store.durable
        app.screen.dismiss()
        await pilot.pause()
        from tutor.ui.screens.store_problem import offer_choices

        offer_choices(app, problem)
        await pilot.pause()
        await pilot.click("#fresh")
        await pilot.pause()
        assert app.store.durable and app.store_problem is None
        backups = list(tutor_home.glob("progress.db.broken-*"))
        assert len(backups) == 1 and backups[0].read_bytes().startswith(b"this is not")
        assert any(f"kept as {backups[0]}" in m for m in messages(app))
        assert app.store.mastered(DRILL)  # the attempt made meanwhile reached the new file


async def test_a_newer_file_can_be_left_alone_by_quitting(make_app, tutor_home):
    import sqlite3

    path = tutor_home / "progress.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    before = path.read_bytes()
    store, problem = open_store(path)
    app = make_app(store=store, store_problem=problem, warm_sandbox=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, StoreProblemScreen)
        assert {b.id for b in app.screen.query(Button)} == {"fresh", "carry-on", "quit"}
        await pilot.click("#quit")
        await pilot.pause()
    assert path.read_bytes() == before


async def test_marking_a_lesson_read_on_a_full_disk_is_kept_and_said(make_app, tiny_fs):
    store = Store(tiny_fs.path / "progress.db")
    app = make_app(store=store, warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # chapter 1's lesson
        await pilot.pause()
        filler = tiny_fs.fill()
        await pilot.press("m")
        await pilot.pause()
        assert any("lesson read mark could not be saved" in m for m in messages(app))
        assert store.pending == 1
        filler.unlink()
        store.record_attempt("fixture-basics/no-grad-does", 1, "x", False, "wrong")
        assert store.lesson_read(1) and store.pending == 0
