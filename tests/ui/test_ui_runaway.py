"""Learner code that loops forever or floods output never freezes the UI: keys still work
while the run is in progress, escape cancels it, and the sandbox serves the next run."""

from __future__ import annotations

import asyncio

from textual.widgets import TextArea

from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.run_status import RunStatus

FIX = "fixture-basics/fix-grad"
GOOD = "w = torch.ones(3, requires_grad=True)\n(w * 2).sum().backward()\n"


async def open_fix(app, pilot) -> DrillScreen:
    await pilot.pause()
    app.post_message(OpenDrill(FIX))
    await pilot.pause()
    await pilot.pause()
    assert isinstance(app.screen, DrillScreen)
    return app.screen


async def wait_until(predicate, pilot, tries: int = 400) -> None:
    for _ in range(tries):
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition never became true")


async def test_infinite_loop_keeps_keys_working_and_cancels(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_fix(app, pilot)
        editor = screen.query_one(TextArea)
        editor.load_text("while True:\n    pass\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.running
        assert screen.query_one(RunStatus).running
        # the UI answers while the learner's loop spins in the sandbox
        await pilot.press("ctrl+t")  # a hint request (this drill has none: a notification)
        editor.focus()
        await pilot.press("end", "x")
        await pilot.pause()
        assert editor.text.startswith("while True:x\n")  # typed while the run goes on
        assert screen.running
        await pilot.press("escape")  # cancel (escape works even from inside the editor)
        await wait_until(lambda: not screen.running, pilot)
        assert "cancelled" in screen.query_one(RunStatus).message
        assert app.store.attempts(FIX) == []  # a cancelled run is not an attempt
        assert isinstance(app.screen, DrillScreen)  # cancelling did not leave the screen
        # the sandbox serves the next run normally
        editor.load_text(GOOD)
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.query_one(FeedbackPanel).grade.correct


async def test_timeout_is_a_plain_verdict(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_fix(app, pilot)
        screen.query_one(TextArea).load_text("while True:\n    pass\n")
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        grade = screen.query_one(FeedbackPanel).grade
        assert grade.status == "timeout" and not grade.correct
        assert [a.status for a in app.store.attempts(FIX)] == ["timeout"]


async def test_flood_of_output_leaves_the_ui_responsive(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_fix(app, pilot)
        screen.query_one(TextArea).load_text("while True:\n    print('x' * 10000)\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+t")
        await asyncio.sleep(0)
        await app.workers.wait_for_complete()
        await pilot.pause()
        grade = screen.query_one(FeedbackPanel).grade
        assert not grade.correct
        assert grade.status in ("output_limit", "timeout")
        assert len(str(screen.query_one(FeedbackPanel).render())) < 5000


async def test_a_runaway_lesson_snippet_cancels_with_escape(make_app, catalog):
    from tutor.content.models import Lesson
    from tutor.ui.screens.lesson import LessonScreen
    from tutor.ui.widgets.snippet import SnippetView

    body = (
        "# Loops\n\n```python run\nwhile True:\n    pass\n```\n\n"
        "Then:\n\n```python run\nprint(1 + 1)\n```\n\n```output\n2\n```\n"
    )
    catalog.lessons[1] = Lesson(chapter=1, title="Loops", thesis="Spin.", body=body)
    app = make_app(catalog=catalog)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        spin, add = list(screen.query(SnippetView))
        spin.focus()
        await pilot.press("r")
        await pilot.pause()
        assert spin.running
        await pilot.press("escape")  # cancels the run, stays on the lesson
        await wait_until(lambda: not spin.running, pilot)
        assert isinstance(app.screen, LessonScreen)
        assert "cancelled" in str(spin.query_one(".live").render())
        add.focus()
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert add.live.stdout == "2\n"


async def test_resubmitting_replaces_the_running_grading(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_fix(app, pilot)
        editor = screen.query_one(TextArea)
        editor.load_text("while True:\n    pass\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.running
        editor.load_text(GOOD)
        await pilot.press("ctrl+s")  # the spinning run is cancelled, the new answer graded
        await pilot.pause()
        assert screen.query_one(RunStatus).running
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.query_one(FeedbackPanel).grade.correct
        assert not screen.query_one(RunStatus).running
        assert [a.answer for a in app.store.attempts(FIX)] == [GOOD]
