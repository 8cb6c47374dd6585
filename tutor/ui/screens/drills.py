"""A list of drills (one chapter's, or all) with their mastery; enter opens one."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tutor.ui.messages import OpenDrill
from tutor.ui.progress_view import MARKS_LEGEND, MASTERED, drill_mark
from tutor.ui.screens.list_screen import ListScreen
from tutor.ui.services import services

if TYPE_CHECKING:
    from tutor.content.catalog import DrillRef


class DrillListScreen(ListScreen):
    """The drills of ``chapter`` (every drill when None): ✓ mastered, ◐ tried, ○ new."""

    CSS_PATH = Path(__file__).with_name(
        "drills.tcss"
    )  # absolute: a subclass elsewhere (pack try) reads it too

    BINDINGS = [Binding("escape", "back", "Back")]
    HEAD, LIST = "drills-head", "drill-list"

    def __init__(self, chapter: int | None = None) -> None:
        super().__init__()
        self.chapter = chapter

    def _refs(self) -> list[DrillRef]:
        catalog = services(self).catalog
        return catalog.drills() if self.chapter is None else catalog.drills_for(self.chapter)

    def on_mount(self) -> None:
        self.title = "All drills" if self.chapter is None else f"Drills · chapter {self.chapter}"
        self.refresh_list()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refresh_list()

    def refresh_list(self) -> None:
        """Redraw the list with current mastery."""
        store = services(self).store
        refs = self._refs()
        mastered = store.mastered_set()
        tried = {a.drill for a in store.attempts()}
        options = []
        width = max([40, *(len(ref.drill.display_title) for ref in refs)])  # kinds line up
        for ref in refs:
            mark = drill_mark(ref.full_id, mastered, tried)
            text = Text()
            text.append(f"{mark} ", style="bold green" if mark == MASTERED else "")
            text.append(f"{ref.drill.display_title:<{width}}", style="bold")
            text.append(f"  {ref.drill.kind:<8}", style="dim")  # two spaces after the longest
            if ref.drill.quiz:
                text.append(" quiz", style="bold")
            if self.chapter is None:
                text.append(f"  ch {ref.chapter}", style="dim")
            options.append(Option(text, id=ref.full_id))
        chapter = "" if self.chapter is None else f"Chapter {self.chapter}: "
        head = Text(f"{chapter}{sum(r.full_id in mastered for r in refs)}/{len(refs)} mastered")
        # a narrow terminal wraps the line between its groups, never inside one
        head.append(f"  {MARKS_LEGEND}  (enter\u00a0opens\u00a0a\u00a0drill)", style="dim")
        self.query_one("#drills-head", Static).update(head)
        listing = self.query_one(OptionList)
        keep = listing.highlighted
        listing.clear_options()
        if options:
            listing.add_options(options)
            listing.highlighted = min(keep or 0, len(options) - 1)
        else:
            listing.add_option(Option("No drills here yet.", disabled=True))

    @on(OptionList.OptionSelected)
    def _open(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.post_message(OpenDrill(event.option.id, [r.full_id for r in self._refs()]))

    def action_back(self) -> None:
        self.dismiss()
