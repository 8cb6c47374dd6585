"""Lab panels: ``Padded``, a widget as tall as what it draws with a cell of padding each side,
and ``DataStatic``, a Static that draws one result (a probe's data) and is empty without one."""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.console import RenderableType
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

D = TypeVar("D")


class Padded(Widget):
    """As tall as what it draws, with a cell of padding left and right (Textual's type
    selector matches the subclasses too)."""

    DEFAULT_CSS = """
    Padded {
        height: auto;
        padding: 0 1;
    }
    """


class DataStatic(Static, Generic[D]):
    """Redrawn with ``draw`` whenever ``data`` changes; empty while ``data`` is None."""

    data: reactive[D | None] = reactive(None)
    """The result shown (None: nothing has run)."""

    def watch_data(self, data: D | None) -> None:
        self.update("" if data is None else self.draw(data))

    def draw(self, data: D) -> RenderableType:
        """``data`` drawn."""
        raise NotImplementedError
