"""Reviews: the drills the schedule says are due, each served as a fresh variant (new seed)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

INTRO = (
    "Each review comes back as a fresh variant with new numbers: recall the idea, not the answer."
)


class ReviewScreen(Screen[None]):
    """Lists the due drills; enter starts the session, one drill screen after another."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("s", "start", "Start reviews"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.session: list[str] = []
        """The drills still to serve in the running session."""
        self.served: list[tuple[str, int]] = []
        """(drill, seed) of every variant served in this screen's sessions."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="review-head")
        yield OptionList(id="review-list")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Reviews"
        self.refresh_due()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refresh_due()

    def due(self) -> list[str]:
        """Due drill ids that exist in the catalog, most overdue first."""
        known = {ref.full_id for ref in self.app.catalog.drills()}
        return [d for d in self.app.store.due_reviews() if d in known]

    def refresh_due(self) -> None:
        """Redraw the list of due drills."""
        due = self.due()
        head = Text()
        if due:
            head.append(f"{len(due)} review{'s' if len(due) != 1 else ''} due today. ", "bold")
            head.append(INTRO + "\nPress s (or enter on a drill) to start.")
        else:
            head.append("Nothing due today. ", "bold")
            head.append("Drills you answer come back here when the schedule says so.")
        self.query_one("#review-head", Static).update(head)
        listing = self.query_one(OptionList)
        listing.clear_options()
        for full_id in due:
            ref = self.app.catalog.drill(full_id)
            text = Text.assemble(
                (f"{ref.drill.display_title:<40}", "bold"),
                (f" {ref.drill.kind:<8} chapter {ref.chapter}", "dim"),
            )
            listing.add_option(Option(text, id=full_id))
        if due:
            listing.highlighted = 0

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        due = self.due()
        if event.option.id in due:
            start = due.index(event.option.id)
            self._begin(due[start:] + due[:start])

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
        seen = {a.seed for a in self.app.store.attempts(full_id)}
        seed = self.app.new_seed(avoid=seen)
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
