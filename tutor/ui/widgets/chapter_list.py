"""The list of the twelve chapters, grouped by part, each with its thesis and progress."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tutor.ui.progress_view import ChapterView

PART_TITLES = {
    "i": "Part i · how PyTorch thinks",
    "ii": "Part ii · practice, and the road to TPU",
}


def chapter_prompt(view: ChapterView) -> Text:
    """Two lines: number, title and status; then the thesis."""
    text = Text()
    mark = "✓" if view.done else " "
    text.append(f"{mark} {view.number:>2}  ", style="bold green" if view.done else "bold")
    text.append(f"{view.title:<27}", style="bold")
    text.append("  ")  # two spaces after the longest title ("Own the state, own the loop")
    if not view.available:
        text.append("not yet available", style="dim italic")
    else:
        if view.has_lesson:
            text.append("lesson ✓ " if view.lesson_read else "lesson ○ ")
        else:
            text.append("no lesson ", style="dim")
        text.append(f" drills {view.drills_mastered}/{view.drills_total}")
        text.append(f"  quiz {view.quiz_mastered}/{view.quiz_total}")
    text.append("\n      ")
    text.append(view.thesis, style="italic dim" if not view.available else "italic")
    return text


class ChapterList(OptionList):
    """The chapters, grouped by part; posts ``Chosen`` and ``Highlighted`` with the number."""

    chapters: reactive[list[ChapterView]] = reactive(list, always_update=True)
    """The chapters to list, with their progress."""

    @dataclass
    class Chosen(Message):
        """The learner picked a chapter (enter or click)."""

        chapter: int

    @dataclass
    class Highlighted(Message):
        """The cursor moved onto a chapter."""

        chapter: int

    def watch_chapters(self, chapters: list[ChapterView]) -> None:
        keep = self.highlighted_option.id if self.highlighted_option else None
        self.clear_options()
        part = None
        for view in chapters:
            if view.part != part:
                part = view.part
                self.add_option(
                    Option(Text(PART_TITLES.get(part, part), style="bold"), disabled=True)
                )
            self.add_option(Option(chapter_prompt(view), id=f"ch-{view.number}"))
        if keep is not None:
            self.highlighted = self.get_option_index(keep)
        elif chapters:
            self.highlighted = 1

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Chosen(int(event.option.id.removeprefix("ch-"))))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Highlighted(int(event.option.id.removeprefix("ch-"))))

    @property
    def current(self) -> int | None:
        """The highlighted chapter number."""
        option = self.highlighted_option
        return int(option.id.removeprefix("ch-")) if option and option.id else None
