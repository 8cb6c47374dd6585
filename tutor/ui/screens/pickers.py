"""Small dialogs: pick a lab; read the problems found in drill packs."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class LabPicker(ModalScreen[str | None]):
    """Choose one of the live labs (or one of ``names``); returns its name."""

    CSS_PATH = Path(__file__).with_name("dialogs.tcss")

    BINDINGS = [Binding("escape", "cancel", "Close")]

    def __init__(self, names: list[str] | None = None) -> None:
        super().__init__()
        self.names = names

    def compose(self) -> ComposeResult:
        from tutor.content.labs import LABS

        titles = {lab.name: lab.title for lab in LABS}

        names = self.names or list(titles)
        with Vertical(id="picker-box") as box:
            box.border_title = "Open a lab"
            box.border_subtitle = "enter to open · escape to close"
            yield OptionList(*[Option(titles.get(n, n), id=n) for n in names])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ProblemsScreen(ModalScreen[None]):
    """The problems found while loading drill packs, one per line (file:line:col: message)."""

    CSS_PATH = Path(__file__).with_name("dialogs.tcss")

    BINDINGS = [Binding("escape,q", "close", "Close")]

    def __init__(self, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="problems-box") as box:
            box.border_title = f"Pack problems ({len(self.problems)})"
            box.border_subtitle = "escape to close"
            text = "\n".join(self.problems) or "No problems: every pack loaded."
            yield Static(text, markup=False)

    def action_close(self) -> None:
        self.dismiss(None)


class LinkPicker(ModalScreen[int | None]):
    """Choose one of several labelled entries (a lesson's lab links); returns its index."""

    CSS_PATH = Path(__file__).with_name("dialogs.tcss")

    BINDINGS = [Binding("escape", "cancel", "Close")]

    def __init__(self, labels: list[str | Content], title: str = "Open a lab") -> None:
        super().__init__()
        self.labels = labels
        self.heading = title

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box") as box:
            box.border_title = self.heading
            box.border_subtitle = "enter to open · escape to close"
            yield OptionList(
                *[
                    Option(Text(label) if isinstance(label, str) else label, id=str(i))
                    for i, label in enumerate(self.labels)
                ]
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)
