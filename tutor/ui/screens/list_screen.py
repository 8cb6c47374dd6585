"""``ListScreen``: a heading over one list, between the header and the keys (the drill list
and the reviews)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static

from tutor.ui.widgets.key_footer import KeyFooter


class ListScreen(Screen[None]):
    """The heading (a ``Static``, id ``HEAD``) and the list (an ``OptionList``, id ``LIST``)."""

    HEAD: ClassVar[str]
    LIST: ClassVar[str]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id=self.HEAD)
        yield OptionList(id=self.LIST)
        yield KeyFooter()
