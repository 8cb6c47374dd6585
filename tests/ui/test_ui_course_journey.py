"""The course journey: from a fresh install, read all twelve chapters and pass each quiz in the TUI,
with the real lessons, the real drill packs and the real sandbox; home counts the chapters done."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, Static

from tutor.content.catalog import Catalog
from tutor.grading.engine import grade_async
from tutor.settings import Settings
from tutor.ui.messages import OpenDrill, OpenLesson
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.screens.home import HomeScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.widgets.feedback import FeedbackPanel


async def settle(app, pilot) -> None:
    """Let pending messages start their workers, wait for the workers, then redraw (a worker
    a key press starts is only running once its message is handled)."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def answer_quiz_drill(app, pilot, ref) -> None:
    """Open a quiz drill and answer it right, as a learner would: type or pick the answer."""
    app.post_message(OpenDrill(ref.full_id, []))
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, DrillScreen)
    if ref.drill.kind == "predict":
        # what torch says for this learner's variant, from the engine the UI uses
        probe = await grade_async(ref, "?", screen.variant.seed, app.sandbox)
        screen.query_one(Input).value = probe.expected
        await pilot.press("enter")
    else:
        assert ref.drill.kind == "choice", ref.full_id
        options = screen.query_one(OptionList)
        right = next(c.answer for c in ref.drill.choices if c.correct)
        shown = [screen.variant.choices[int(o.id or 0)] for o in options.options]
        options.highlighted = shown.index(right)  # each option drawn from the answer as written
        await pilot.press("enter")
    await settle(app, pilot)
    result = screen.query_one(FeedbackPanel).grade
    assert result is not None and result.correct, (ref.full_id, result)
    await pilot.press("escape")
    await settle(app, pilot)


async def read_lesson(app, pilot, chapter: int) -> None:
    """Open the chapter's lesson, mark it read, go back home."""
    app.post_message(OpenLesson(chapter))
    await settle(app, pilot)
    assert isinstance(app.screen, LessonScreen)
    await pilot.press("m")
    await pilot.press("escape")
    await settle(app, pilot)


def home_summary(app) -> str:
    return str(app.screen.query_one("#home-summary", Static).render())


# (the chapters one learner goes through, the learner's seed)
JOURNEYS = [
    pytest.param((1, 2, 3, 4), 4, id="chapters-1-4"),
    pytest.param((5, 6, 7), 7, id="chapters-5-7"),
    pytest.param((8, 9), 8, id="chapters-8-9"),
    pytest.param((10, 11), 10, id="chapters-10-11"),  # xla chapters: choices, no runtime needed
    pytest.param((12,), 12, id="chapter-12"),
]


@pytest.mark.parametrize(("chapters", "seed"), JOURNEYS)
async def test_chapters_done_through_the_ui(chapters, seed):
    """A fresh learner reads each lesson and passes each quiz (at least three drills a chapter);
    home then counts exactly those chapters done. Every chapter is installed."""
    from tutor.ui.app import TutorApp
    from tutor.ui.widgets.chapter_list import ChapterList

    catalog = Catalog.load(Settings())
    app = TutorApp(Settings(), catalog=catalog, seed=seed)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "0/12 chapters" in home_summary(app)
        lines = [str(o.prompt) for o in app.screen.query_one(ChapterList).options if o.id]
        assert len(lines) == 12 and not [line for line in lines if "not yet available" in line]
        for chapter in chapters:
            await read_lesson(app, pilot, chapter)
            quiz = [ref for ref in catalog.drills_for(chapter) if ref.drill.quiz]
            assert len(quiz) >= 3, f"chapter {chapter} has {len(quiz)} quiz drills"
            for ref in quiz:
                await answer_quiz_drill(app, pilot, ref)
        assert isinstance(app.screen, HomeScreen)
        app.screen.refresh_progress()
        await pilot.pause()
        assert f"{len(chapters)}/12 chapters" in home_summary(app)
        assert app.store.chapters_done() == set(chapters)
