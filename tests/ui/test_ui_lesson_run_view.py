"""After `r` on a snippet taller than an 80x24 screen, the live output ends in view: lesson 4's
first snippet (16 lines, 5 of output), run in the real sandbox from the places a learner would
press `r`: its header at the top of the view, its header on the last row."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.lessons import load_lesson
from tutor.ui.messages import OpenLesson
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.widgets.snippet import SnippetView

LOOP = Path(__file__).parents[2] / "lessons" / "04-loop.md"


async def open_loop_lesson(app, pilot) -> LessonScreen:
    """Open lesson 4 and wait until it is drawn (its workers done)."""
    await pilot.pause()
    app.post_message(OpenLesson(4))
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, LessonScreen)
    await app.workers.wait_for_complete()
    for _ in range(3):
        await pilot.pause()
    return screen


@pytest.mark.parametrize("head_row", ["top", "last"])
async def test_the_live_output_of_a_long_snippet_ends_in_view(make_app, catalog, head_row):
    catalog.lessons[4] = load_lesson(LOOP)
    app = make_app(catalog=catalog)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_loop_lesson(app, pilot)
        scroll = screen.query_one("#lesson-scroll")
        first = screen.query(SnippetView).first()
        assert first.code.count("\n") >= 15  # taller than the screen with its outputs
        view = scroll.scrollable_content_region
        top = first.virtual_region.y
        scroll.scroll_to(y=top if head_row == "top" else top - view.height + 1, animate=False)
        await pilot.pause()
        await pilot.pause()
        assert screen._snippet_on_screen() is first
        await pilot.press("r")
        await app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.pause()
        assert first.live is not None and first.live.status == "ok", first.live
        live = first.query_one(".live")
        assert "after zero_grad: grad None" in str(live.render())
        # the live box, its last line and its bottom border, on screen
        assert live.region.bottom <= scroll.scrollable_content_region.bottom, (
            live.region,
            scroll.scrollable_content_region,
        )


async def test_a_learner_who_scrolls_away_during_the_run_is_left_where_they_are(make_app, catalog):
    catalog.lessons[4] = load_lesson(LOOP)
    app = make_app(catalog=catalog)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_loop_lesson(app, pilot)
        scroll = screen.query_one("#lesson-scroll")
        first = screen.query(SnippetView).first()
        scroll.scroll_to(y=first.virtual_region.y, animate=False)
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        far = first.virtual_region.bottom + 200
        scroll.scroll_to(y=far, animate=False)  # reading on while it runs
        await app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.pause()
        assert first.live is not None and first.live.status == "ok"
        assert scroll.scroll_y == far
