"""Re-grading: the previous verdict leaves the screen the moment a new answer is submitted."""

from __future__ import annotations

from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.widgets.feedback import FeedbackPanel


async def test_previous_verdict_cleared_while_regrading(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill("fixture-basics/row-strides", []))
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        screen.grade("(1, 1)")
        await app.workers.wait_for_complete()
        await pilot.pause()
        panel = screen.query_one(FeedbackPanel)
        assert panel.grade is not None and not panel.grade.correct
        screen.grade("(2, 1)")  # submitted: the old verdict must not stand for the new answer
        assert panel.grade is None and not panel.display
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert panel.grade is not None
