"""The side panel of the home screen: one chapter's status and what to do next."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Static

from tutor.ui.progress_view import MASTERY_RULE, ChapterView


def detail_text(view: ChapterView | None) -> Text:
    """The panel's text for ``view``."""
    if view is None:
        return Text("")
    text = Text()
    text.append(f"Chapter {view.number} · {view.title}\n", style="bold")
    text.append(f"{view.thesis}\n\n", style="italic")
    if not view.available:
        text.append("Not yet available: no lesson or drills are installed yet.\n", style="dim")
        return text
    if view.has_lesson:
        text.append("Lesson     ")
        text.append("read ✓\n" if view.lesson_read else "not read yet\n")
    else:
        text.append("Lesson     not written yet\n", style="dim")
    text.append(f"Drills     {view.drills_mastered}/{view.drills_total} mastered\n")
    text.append(f"Quiz       {view.quiz_mastered}/{view.quiz_total} mastered\n")
    if view.labs:
        text.append(f"Labs       {', '.join(view.labs)}\n")
    text.append("Status     ")
    if view.done:
        text.append("done ✓\n", style="bold")
    else:
        text.append("in progress\n" if view.started else "not started\n")
    text.append(f"\n{MASTERY_RULE}", style="dim")
    return text


class ChapterDetail(Vertical):
    """Shows the highlighted chapter; its buttons post ``Action`` messages."""

    view: reactive[ChapterView | None] = reactive(None)
    """The chapter shown (None before the list highlights one)."""

    @dataclass
    class Action(Message):
        """A button was pressed: ``what`` is "lesson" or "drills"."""

        what: str
        chapter: int

    def compose(self) -> ComposeResult:
        yield Static(id="detail-text")
        with Horizontal(id="detail-buttons"):
            yield Button("Read lesson", id="detail-lesson", variant="primary")
            yield Button("Drills", id="detail-drills")

    def watch_view(self, view: ChapterView | None) -> None:
        self.query_one("#detail-text", Static).update(detail_text(view))
        self.query_one("#detail-lesson", Button).disabled = not (view and view.has_lesson)
        self.query_one("#detail-drills", Button).disabled = not (view and view.drills_total)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if self.view is not None and event.button.id:
            self.post_message(
                self.Action(event.button.id.removeprefix("detail-"), self.view.number)
            )
