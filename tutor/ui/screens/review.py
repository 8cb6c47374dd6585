"""Reviews: the drills the schedule says are due, each served as a fresh variant (new seed).
With nothing due, the screen says when the next review is and lists the coming ones, which the
learner may practise ahead of time."""

from __future__ import annotations

import textwrap
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tutor.ui.progress_view import until
from tutor.ui.screens.list_screen import ListScreen
from tutor.ui.services import services

INTRO = (
    "Each review comes back as a fresh variant with new numbers: recall the idea, not the answer."
)
#: how many coming reviews "practise ahead" serves
AHEAD = 5


def review_row(title: str, facts: str, width: int) -> Text:
    """One listed review: the title in a column ``width`` wide (a longer one wraps inside it),
    then the kind, chapter and when it is due, lined up under each other row to row."""
    lines = textwrap.wrap(title, width) or [""]
    text = Text()
    for i, line in enumerate(lines):
        text.append(("\n" if i else "") + f"{line:<{width}}", "bold")
        if not i:
            text.append(facts, "dim")
    return text


class ReviewScreen(ListScreen):
    """Lists the due drills; enter starts the session, one drill screen after another."""

    CSS_PATH = Path(__file__).with_name("drills.tcss")

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("s", "start", "Start reviews"),
        Binding("a", "ahead", "Practise ahead"),
    ]
    HEAD, LIST = "review-head", "review-list"

    def __init__(self) -> None:
        super().__init__()
        self.session: list[str] = []
        """The drills still to serve in the running session."""
        self.served: list[tuple[str, int]] = []
        """(drill, seed) of every variant served in this screen's sessions."""

    def on_mount(self) -> None:
        self.title = "Reviews"
        self.refresh_due()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refresh_due()

    def on_resize(self) -> None:
        self.refresh_due()  # the title column takes the room there is

    def due(self) -> list[str]:
        """Due drill ids that exist in the catalog, most overdue first."""
        known = {ref.full_id for ref in services(self).catalog.drills()}
        return [d for d in services(self).store.due_reviews() if d in known]

    def upcoming(self) -> list[tuple[str, datetime]]:
        """``(drill, due)`` of the reviews not due yet, soonest first (catalog drills only)."""
        known = {ref.full_id for ref in services(self).catalog.drills()}
        return [(d, at) for d, at in services(self).store.upcoming_reviews() if d in known]

    def refresh_due(self) -> None:
        """Redraw the list: the due drills, or else the coming ones with when each is due."""
        due = self.due()
        upcoming = [] if due else self.upcoming()
        head = Text()
        if due:
            head.append(f"{len(due)} review{'s' if len(due) != 1 else ''} due today. ", "bold")
            head.append(INTRO + "\nPress s (or enter on a drill) to start.")
        elif upcoming:
            now = services(self).store.clock()
            head.append("Nothing due now. ", "bold")
            head.append(f"The next review is due {until(upcoming[0][1] - now)}. ")
            head.append(f"Press a to practise the next {min(AHEAD, len(upcoming))} ahead of time "
                        "(or enter on one).")  # fmt: skip
        else:
            head.append("Nothing due today. ", "bold")
            head.append("Drills you answer come back here when the schedule says so.")
        self.query_one("#review-head", Static).update(head)
        listing = self.query_one(OptionList)
        kept = listing.highlighted_option.id if listing.highlighted_option else None
        listing.clear_options()
        now = services(self).store.clock()
        rows = [(d, None) for d in due] or upcoming
        refs = [services(self).catalog.drill(full_id) for full_id, _ in rows]
        facts = [
            f" {ref.drill.kind:<8} chapter {ref.chapter:<2}"
            + (f"  due {until(at - now)}" if at is not None else "")
            for ref, (_, at) in zip(refs, rows, strict=True)
        ]
        room = self.app.size.width - 6 - max((len(f) for f in facts), default=0)
        width = max(12, min(room, max((len(r.drill.display_title) for r in refs), default=0)))
        for ref, fact in zip(refs, facts, strict=True):
            listing.add_option(
                Option(review_row(ref.drill.display_title, fact, width), id=ref.full_id)
            )
        if rows:
            ids = [full_id for full_id, _ in rows]
            listing.highlighted = ids.index(kept) if kept in ids else 0

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        due = self.due() or [d for d, _ in self.upcoming()]
        if event.option.id in due:
            start = due.index(event.option.id)
            self._begin(due[start:] + due[:start])

    def action_ahead(self) -> None:
        """Practise the coming reviews now, soonest first (when nothing is due)."""
        if self.due():
            self.notify("Reviews are due now: press s to start them.")
            return
        coming = [d for d, _ in self.upcoming()][:AHEAD]
        if not coming:
            self.notify("No reviews are scheduled yet: answer some drills first.")
            return
        self._begin(coming)

    def action_start(self) -> None:
        due = self.due()
        if not due:
            self.notify("Nothing is due today.")
            return
        self._begin(due)

    def _begin(self, drills: list[str]) -> None:
        self.session = list(drills)
        self._serve_next()

    def _serve_next(self, _solved: bool | None = None) -> None:
        from tutor.ui.screens.drill import DrillScreen

        if not self.session:
            return
        full_id = self.session.pop(0)
        seen = {a.seed for a in services(self).store.attempts(full_id)}
        seed = services(self).new_seed(avoid=seen)
        self.served.append((full_id, seed))
        self.app.push_screen(
            DrillScreen(full_id, seed=seed, review=True, queue=[full_id]), self._after
        )

    def _after(self, solved: bool | None) -> None:
        if solved is None:
            self.session = []
            return
        if self.session:
            self._serve_next()
        else:
            self.notify("Review session finished.")

    def action_back(self) -> None:
        self.dismiss()
