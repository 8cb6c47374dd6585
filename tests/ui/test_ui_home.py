"""The home screen: chapters by part, honest progress, continue, persistence across launches."""

from __future__ import annotations

from tutor.progress.store import Store
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.home import HomeScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.widgets.chapter_list import ChapterList
from tutor.ui.widgets.order_list import OrderList


def summary(app) -> str:
    return str(app.screen.query_one("#home-summary").render())


def chapter_line(app, number: int) -> str:
    chapters = app.screen.query_one(ChapterList)
    option = chapters.get_option(f"ch-{number}")
    return str(option.prompt)


async def test_fresh_home_shows_zero_of_twelve(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert "0/12 chapters" in summary(app)
        assert "0 reviews due today" in summary(app)
        # chapter 1 has the fixture lesson and five drills (two of them quiz)
        line = chapter_line(app, 1)
        assert "Tensors" in line and "drills 0/5" in line and "quiz 0/2" in line
        assert "strides are the map" in line
        # chapters with nothing installed say so honestly
        assert "not yet available" in chapter_line(app, 7)
        parts = [str(o.prompt) for o in app.screen.query_one(ChapterList).options if o.disabled]
        assert parts == ["Part i · how PyTorch thinks", "Part ii · practice, and the road to TPU"]


async def test_enter_opens_the_lesson_and_continue_returns_there(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert "continue: lesson 1" in summary(app)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen)


async def test_progress_survives_a_relaunch(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("m")  # mark the lesson read
        await pilot.pause()
        app.post_message(OpenDrill("fixture-basics/step-order"))
        await pilot.pause()
        await pilot.pause()
        order = app.screen.query_one(OrderList)
        order.lines = list(app.catalog.drill("fixture-basics/step-order").drill.lines)
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    # a second launch opens the same database from TUTOR_HOME
    again = make_app(warm_sandbox=False)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "lesson ✓" in chapter_line(again, 1)
        assert "drills 1/5" in chapter_line(again, 1) and "quiz 1/2" in chapter_line(again, 1)
        # the drill answered last is mastered: continue goes on to the next one not mastered
        assert "continue: drill · What no_grad does" in summary(again)
    assert Store().lesson_read(1)


async def test_continue_never_points_at_a_mastered_drill(make_app, catalog):
    store = Store()
    ids = [r.full_id for r in catalog.drills_for(1)]
    store.set_last_location("drill", ids[1])
    store.record_attempt(ids[1], 1, "x", False, "wrong", 0, 3.0)  # tried, not mastered: stay
    app = make_app(warm_sandbox=False, store=store)
    assert app.resume_location() == ("drill", ids[1])
    for full_id in ids[1:3] + ids[0:1]:  # mastered: on to the next one not mastered, wrapping
        store.record_attempt(full_id, 1, "x", True, "correct", 0, 3.0)
    assert app.resume_location() == ("drill", ids[3])
    for full_id in ids:
        store.record_attempt(full_id, 1, "x", True, "correct", 0, 3.0)
    assert app.resume_location() is None  # every drill after it mastered, no lesson unread
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "continue:" not in summary(app)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_chapter_done_when_lesson_read_and_quiz_mastered(make_app):
    store = Store()
    store.mark_lesson_read(1)
    store.record_attempt("fixture-basics/row-strides", 1, "(5, 1)", True, "correct", 1, 3.0)
    store.record_attempt("fixture-basics/step-order", 1, "...", True, "correct", 0, 3.0)
    app = make_app(warm_sandbox=False, store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "1/12 chapters" in summary(app)
        line = chapter_line(app, 1)
        assert line.startswith("✓") and "quiz 2/2" in line and "drills 2/5" in line


async def test_narrow_terminal_hides_the_detail_panel(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#chapter-detail").display or (
            app.screen.query_one("#chapter-detail").region.width == 0
        )
        assert "0/12 chapters" in summary(app)


async def test_a_second_start_draws_home_from_the_cached_summary():
    from tutor.settings import Settings
    from tutor.ui.app import TutorApp

    first = TutorApp(Settings.from_options(), warm_sandbox=False)  # no cache: loads the catalog
    assert first._catalog is not None
    app = TutorApp(Settings.from_options(), warm_sandbox=False)
    assert app._catalog is None, "the cached summary should spare the first frame the catalog"
    assert app.summary == first.summary
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert "0/12 chapters" in summary(app)
        await app.workers.wait_for_complete()  # the catalog loads right after the first frame
        assert app._catalog is not None
        assert len(app.catalog.drills()) == len(app.summary.drills)


async def test_the_chapter_panel_says_not_started_until_the_learner_starts(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        detail = app.screen.query_one("#detail-text")
        assert "Status     not started" in str(detail.render())
        app.store.record_attempt("fixture-basics/row-strides", 1, "(1, 1)", False, "wrong")
        app.screen.refresh_progress()
        await pilot.pause()
        assert "Status     in progress" in str(detail.render())
