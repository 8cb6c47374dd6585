"""Told at start when the progress file cannot be used: what happened, and what to do.

The tutor is already running on a stand-in (``tutor.progress.opening``); this dialog says why,
and offers a fresh start (the old file renamed and kept) when the file is damaged or newer.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

FRESH = {
    "corrupt": "Start fresh: the damaged file is renamed and kept, a new one is made.",
    "newer": "Start fresh: the newer file is renamed and kept (a newer tutor can still read "
    "it), a new one is made.",
}


class StoreProblemScreen(ModalScreen[str]):
    """Explains ``problem`` (a ``StoreError``); dismisses with ``fresh``, ``carry-on`` or
    ``quit``."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS = [Binding("escape", "carry_on", "Carry on")]

    def __init__(self, problem: object, why: str) -> None:
        super().__init__()
        self.problem = problem
        self.why = why

    def compose(self) -> ComposeResult:
        kind = getattr(self.problem, "kind", "")
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


def report_store(app: Any) -> None:
    """Show what the store has to say about saving (a full disk, attempts saved later)."""
    take = getattr(app.store, "take_notices", None)
    for notice in take() if take else []:
        timeout = 6 if notice.severity == "information" else 15
        app.notify(
            notice.text, title="Progress", severity=notice.severity, timeout=timeout, markup=False
        )


def offer_choices(app: Any, problem: Any) -> None:
    """Push the dialog for ``problem`` and act on the learner's choice."""

    def chosen(choice: str | None) -> None:
        if choice == "quit":
            app.exit()
        elif choice == "fresh":
            start_fresh(app)

    app.push_screen(StoreProblemScreen(problem, getattr(app.store, "why", str(problem))), chosen)


def start_fresh(app: Any) -> None:
    """Set the broken file aside, open a new one, and redraw the current screen."""
    from tutor.progress.database import StoreError
    from tutor.progress.opening import fresh_start

    try:
        store, backup = fresh_start(app.store.path)
    except (StoreError, OSError) as exc:
        app.notify(
            f"Could not start fresh: {exc}", title="Progress", severity="error", markup=False
        )
        return
    old, app.store = app.store, store
    old.close()
    app.store_problem = None
    app.notify(
        f"Started a fresh progress file. The old one is kept as {backup}.",
        title="Progress",
        timeout=15,
        markup=False,
    )
    report_store(app)
    refresh = getattr(app.screen, "refresh_progress", None)
    if refresh:
        refresh()
