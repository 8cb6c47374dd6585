"""Told at start when the progress file cannot be used: what happened, and what to do.

The tutor is already running on a stand-in (``tutor.progress.opening``); this dialog says why,
and offers a fresh start (the old file renamed and kept) when the file is damaged or newer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tutor.ui.services import services

if TYPE_CHECKING:
    from tutor.progress.database import StoreError

FRESH = {
    "corrupt": "Start fresh: the damaged file is renamed and kept, a new one is made.",
    "newer": "Start fresh: the newer file is renamed and kept (a newer tutor can still read "
    "it), a new one is made.",
}


class StoreProblemScreen(ModalScreen[str]):
    """Explains ``problem`` (a ``StoreError``); dismisses with ``fresh``, ``carry-on`` or
    ``quit``."""

    CSS_PATH = Path(__file__).with_name("dialogs.tcss")

    BINDINGS = [Binding("escape", "carry_on", "Carry on")]

    def __init__(self, problem: StoreError, why: str) -> None:
        super().__init__()
        self.problem = problem
        self.why = why

    def compose(self) -> ComposeResult:
        kind = self.problem.kind
        with Vertical(id="store-problem-box") as box:
            box.border_title = "Progress"
            yield Static(Text(self.why), id="store-problem-why")
            if kind in FRESH:
                yield Static(Text(FRESH[kind]), classes="help-section")
            with Horizontal(id="store-problem-buttons"):
                if kind in FRESH:
                    yield Button("Start fresh", id="fresh", variant="primary")
                yield Button("Carry on", id="carry-on")
                yield Button("Quit", id="quit", variant="error")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "carry-on")

    def action_carry_on(self) -> None:
        self.dismiss("carry-on")


def report_store(app: App[None]) -> None:
    """Show what the store has to say about saving (a full disk, attempts saved later)."""
    for notice in services(app).store.take_notices():
        timeout = 6 if notice.severity == "information" else 15
        app.notify(
            notice.text, title="Progress", severity=notice.severity, timeout=timeout, markup=False
        )


def offer_choices(app: App[None], problem: StoreError) -> None:
    """Push the dialog for ``problem`` and act on the learner's choice."""

    def chosen(choice: str | None) -> None:
        if choice == "quit":
            app.exit()
        elif choice == "fresh":
            start_fresh(app)

    why = services(app).store.why or str(problem)
    app.push_screen(StoreProblemScreen(problem, why), chosen)


def start_fresh(app: App[None]) -> None:
    """Set the broken file aside, open a new one, and redraw the current screen."""
    from tutor.progress.database import StoreError
    from tutor.progress.opening import fresh_start

    tutor = services(app)
    try:
        store, backup = fresh_start(tutor.store.path)
    except (StoreError, OSError) as exc:
        app.notify(
            f"Could not start fresh: {exc}", title="Progress", severity="error", markup=False
        )
        return
    old, tutor.store = tutor.store, store
    old.close()
    tutor.store_problem = None
    app.notify(
        f"Started a fresh progress file. The old one is kept as {backup}.",
        title="Progress",
        timeout=15,
        markup=False,
    )
    report_store(app)
    from tutor.ui.screens.home import HomeScreen

    if isinstance(app.screen, HomeScreen):
        app.screen.refresh_progress()
