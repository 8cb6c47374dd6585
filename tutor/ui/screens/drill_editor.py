"""$EDITOR and watch mode for the drill screen (a mixin, so the screen module stays small)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen
from textual.widgets import TextArea

from tutor.grading.kinds import kind_of
from tutor.ui.screens.editor import EditorSession
from tutor.ui.widgets.run_status import RunStatus

if TYPE_CHECKING:
    from tutor.content.catalog import DrillRef


class EditorActions(Screen[bool | None]):
    """$EDITOR and watch mode for a drill screen (mixed into ``DrillScreen``): the answer goes
    to a file under ``$TUTOR_HOME/work/``; on return, or on every save while watching, the
    file is loaded into the editor and graded."""

    editor_session: EditorSession | None
    full_id: str
    ref: DrillRef

    if TYPE_CHECKING:

        def current_answer(self) -> str:
            """The answer as it stands in the answer widget."""
            ...

        def grade(self, answer: str) -> None:
            """Grade ``answer``."""
            ...

    def _code(self) -> bool:
        """Whether the drill's answer is code (its kind's input is the editor)."""
        return kind_of(self.ref.drill).answer_input == "code"

    def _session(self) -> EditorSession:
        if self.editor_session is None:
            self.editor_session = EditorSession(self.full_id, self._code())
        return self.editor_session

    def action_editor(self) -> None:
        if not self._code():
            self.notify("$EDITOR is for code and fix drills.")
            return
        session = self._session()
        before = self.current_answer()
        session.write(before)
        try:
            with self.app.suspend():
                session.edit()
        except Exception as exc:  # headless, or no editor
            self.notify(f"Could not open $EDITOR: {exc}", severity="error")
            return
        self.refresh(layout=True)
        self.back_from_editor(before, session.read())

    def back_from_editor(self, before: str, text: str) -> None:
        """The learner left $EDITOR: an answer saved there is loaded and submitted (and the
        learner told so); one left as it was is loaded, and nothing is submitted."""
        if text == before or not text.strip():
            if text.strip():
                self.query_one("#answer", TextArea).load_text(text)
            self.notify("$EDITOR closed with the answer unchanged: nothing was submitted.")
            return
        self.notify("Submitted the answer you saved in $EDITOR.")
        self._take_file(text)

    def action_watch(self) -> None:
        if not self._code():
            self.notify("Watch mode is for code and fix drills.")
            return
        session = self._session()
        if session.watching:
            session.watching = False
            self.workers.cancel_group(self, "watch")
            self.query_one("#drill-status", RunStatus).message = "stopped watching"
            return
        session.write(self.current_answer())
        session.watching = True
        self.query_one(
            "#drill-status", RunStatus
        ).message = f"watching {session.path}: save it to re-grade"
        self._watch(session)

    @work(exclusive=True, group="watch")
    async def _watch(self, session: EditorSession) -> None:
        """Re-grade whenever the watched file is saved (like rustlings)."""
        while session.watching:
            await asyncio.sleep(0.3)
            if session.changed():
                self._take_file(session.read())

    def _take_file(self, text: str) -> None:
        if self._code():
            self.query_one("#answer", TextArea).load_text(text)
        if text.strip():
            self.grade(text)
