"""Answering in the learner's own editor: the answer file, and watch mode re-grading on save."""

from __future__ import annotations

import os

from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.screens.editor import EditorSession, editor_command
from tutor.ui.widgets.feedback import FeedbackPanel

GOOD = "def outer(a, b):\n    return a[:, None] * b[None, :]\n"


def test_editor_session_notices_saves(tutor_home):
    session = EditorSession("fixture-basics/outer", code=True)
    assert session.path.parent == tutor_home / "work"
    session.write("def outer(a, b):\n    ...\n")
    assert not session.changed()
    session.path.write_text(GOOD)
    stat = session.path.stat()
    os.utime(session.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert session.changed()
    assert session.read() == GOOD
    assert not session.changed()


def test_editor_command_prefers_visual(monkeypatch):
    monkeypatch.setenv("EDITOR", "nano -w")
    monkeypatch.delenv("VISUAL", raising=False)
    assert editor_command() == ["nano", "-w"]
    monkeypatch.setenv("VISUAL", "code --wait")
    assert editor_command() == ["code", "--wait"]


async def test_watch_mode_regrades_when_the_file_is_saved(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill("fixture-basics/outer"))
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        await pilot.press("ctrl+g")
        await pilot.pause()
        session = screen.editor_session
        assert session is not None and session.watching
        assert session.path.read_text().startswith("def outer(a, b):")
        session.path.write_text(GOOD)  # the learner saves in their editor
        stat = session.path.stat()
        os.utime(session.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        for _ in range(600):
            grade = screen.query_one(FeedbackPanel).grade
            if grade is not None and not screen.running:
                break
            await pilot.pause(0.05)
        assert grade is not None and grade.correct
        assert screen.query_one("#answer").text == GOOD
        await pilot.press("escape", "escape")  # leave the editor, then stop watching
        await pilot.pause()
        assert not session.watching
        assert isinstance(app.screen, DrillScreen)


async def test_leaving_editor_submits_what_was_saved_and_says_so_and_ctrl_s_adds_no_twin(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill("fixture-basics/outer"))
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        before = screen.current_answer()
        screen.back_from_editor(before, before)  # quit without saving a change
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert "$EDITOR closed with the answer unchanged: nothing was submitted." in said
        assert screen.query_one(FeedbackPanel).grade is None
        assert app.store.attempts("fixture-basics/outer") == []
        screen.back_from_editor(before, GOOD)  # saved an answer, then quit
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert "Submitted the answer you saved in $EDITOR." in said
        await app.workers.wait_for_complete()
        await pilot.pause()
        grade = screen.query_one(FeedbackPanel).grade
        assert grade is not None and grade.correct
        assert screen.query_one("#answer").text == GOOD
        await pilot.press("ctrl+s")  # the same answer again: not a second attempt
        await pilot.pause()
        assert any("was just graded" in n.message for n in app._notifications)
        await app.workers.wait_for_complete()
        assert len(app.store.attempts("fixture-basics/outer")) == 1
        screen.query_one("#answer").load_text(GOOD + "\n")  # changed: graded again
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(app.store.attempts("fixture-basics/outer")) == 2
