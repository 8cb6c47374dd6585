"""The `?` dialog: the keys of the screen underneath, and the few that work everywhere."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tutor.ui.progress_view import MASTERY_RULE

EVERYWHERE = [
    ("ctrl+p", "command palette: chapters, lessons, labs, drills, reviews, doctor"),
    ("escape", "back (or cancel a run in progress)"),
    ("?", "this help (in a text field ? is typed)"),
    ("tab", "move to the next part of the screen (shift+tab: back)"),
    ("pgup/pgdn", "scroll the screen, whatever has focus (ctrl+home/end: top/bottom)"),
    ("in an editor", "a code editor: tab indents, escape leaves it, backspace dedents"),
    ("ctrl+q", "quit (the palette's 'Theme' entries switch light/dark)"),
]


def keys_table(title: str, keys: list[tuple[str, str]]) -> Table:
    """A two-column table of keys and what they do."""
    table = Table(title=title, title_justify="left", show_header=False, box=None)
    table.add_column("key", style="bold", no_wrap=True, width=14)
    table.add_column("does")
    for key, does in keys:
        table.add_row(key, does)
    return table


class HelpScreen(ModalScreen[None]):
    """Lists ``keys`` (the active bindings when `?` was pressed) and the global keys."""

    CSS_PATH = Path(__file__).with_name("dialogs.tcss")

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box") as box:
            box.border_title = "Keys"
            box.border_subtitle = "escape to close"
            seen = {k for k, _ in EVERYWHERE}
            here = [(k, d) for k, d in self.keys if k not in seen]
            yield Static(keys_table("On this screen", here))
            yield Static(keys_table("Everywhere", EVERYWHERE), classes="help-section")
            yield Static(
                f"The mouse works too: click chapters, buttons and links.\n\n{MASTERY_RULE}",
                classes="help-section",
            )
