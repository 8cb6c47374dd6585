"""The code editor of drills and labs: a ``TextArea`` that indents as Python is written.

One behaviour everywhere: tab indents (it never moves focus out of an editor), escape leaves the
editor (focus moves on to the next control), backspace in a line's leading whitespace removes one
indentation level. The footer says the first two while an editor has focus."""

from __future__ import annotations

from typing import Any, Literal

from textual import events
from textual.binding import Binding
from textual.widgets import TextArea

from tutor.ui.widgets.focus_view import reveal_cursor


def next_indent(line: str, unit: str = "    ") -> str:
    """The indent of the line after ``line`` (the text before the cursor): the same as
    ``line``'s, and one ``unit`` more after a line ending in ``:``."""
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    code = line.rstrip()
    if "#" in code and not any(q in code for q in "'\""):  # a comment after the colon
        code = code.split("#", 1)[0].rstrip()
    return indent + unit if code.endswith(":") else indent


def dedent_width(before: str, width: int) -> int:
    """How many characters backspace removes after ``before`` (a line up to the cursor): back to
    the previous indentation stop when ``before`` is only spaces, else one."""
    if not before or before.strip(" ") or width < 1:
        return 1
    return (len(before) - 1) % width + 1


class CodeEditor(TextArea):
    """Enter keeps the previous line's indent, one level more after a line ending in ``:``;
    tab indents, escape leaves, backspace in the indentation dedents."""

    BINDINGS = [
        Binding("tab", "indent", "Indent"),
        Binding("escape", "leave", "Leave editor"),
    ]

    def __init__(
        self, text: str = "", *, tab_behavior: Literal["focus", "indent"] = "indent", **kwargs: Any
    ) -> None:
        super().__init__(text, tab_behavior=tab_behavior, **kwargs)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer indent and leave only where the editor can be edited."""
        if action in ("indent", "leave"):
            return not self.read_only
        return True

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter" and not self.read_only:
            event.stop()
            event.prevent_default()
            self._restart_blink()
            start, end = self.selection
            row, column = min(start, end)
            indent = next_indent(self.document[row][:column], self._unit())
            self._replace_via_keyboard("\n" + indent, start, end)
            return
        await super()._on_key(event)

    def on_text_area_selection_changed(self) -> None:
        self.call_after_refresh(reveal_cursor, self)  # never type on a line out of view

    def _unit(self) -> str:
        return "\t" if self.indent_type == "tabs" else " " * self.indent_width

    def action_indent(self) -> None:
        """Insert spaces up to the next indentation stop (what tab does in the editor)."""
        if self.read_only:
            return
        row, column = self.cursor_location
        width = self.indent_width
        spaces = width - column % width if self.indent_type != "tabs" else 0
        start, end = self.selection
        self._replace_via_keyboard(" " * spaces if spaces else "\t", start, end)

    def action_leave(self) -> None:
        """Move focus on to the next control (what escape does in the editor)."""
        self.screen.focus_next()

    def action_delete_left(self) -> None:
        """Backspace: in a line's leading spaces, back to the previous indentation stop."""
        if self.read_only:
            return
        selection = self.selection
        if selection.is_empty and self.indent_type != "tabs":
            row, column = selection.end
            count = dedent_width(self.document[row][:column], self.indent_width)
            if count > 1:
                self._delete_via_keyboard((row, column - count), (row, column))
                return
        super().action_delete_left()
