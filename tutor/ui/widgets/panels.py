"""Lab panels: ``Padded``, a widget as tall as what it draws with a cell of padding each side;
``DataStatic``, a Static that draws one result (a probe's data) and is empty without one; and
``RowsTable``, a table refilled from one result."""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import DataTable, Static

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


class RowsTable(DataTable[str | Text], Generic[D]):
    """A table of one result: ``COLUMNS`` (label, key) set up on mount with a row cursor and
    zebra stripes; ``show(data)`` empties it and refills it with ``fill`` (empty for None)."""

    COLUMNS: ClassVar[tuple[tuple[str | Text, str], ...]] = ()

    def on_mount(self) -> None:
        """Set up the columns."""
        self.cursor_type = "row"
        self.zebra_stripes = True
        for label, key in self.COLUMNS:
            self.add_column(label, key=key)

    def show(self, data: D | None) -> None:
        """Fill the table from ``data`` (empty it when None)."""
        self.clear()
        if data is not None:
            self.fill(data)

    def fill(self, data: D) -> None:
        """Add ``data``'s rows."""
        raise NotImplementedError
