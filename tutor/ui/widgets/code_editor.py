"""The code editor of drills and labs: a ``TextArea`` that indents as Python is written."""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea


def next_indent(line: str, unit: str = "    ") -> str:
    """The indent of the line after ``line`` (the text before the cursor): the same as
    ``line``'s, and one ``unit`` more after a line ending in ``:``."""
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    code = line.rstrip()
    if "#" in code and not any(q in code for q in "'\""):  # a comment after the colon
        code = code.split("#", 1)[0].rstrip()
    return indent + unit if code.endswith(":") else indent


class CodeEditor(TextArea):
    """Enter keeps the previous line's indent, one level more after a line ending in ``:``."""

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter" and not self.read_only:
            event.stop()
            event.prevent_default()
            self._restart_blink()
            start, end = self.selection
            row, column = min(start, end)
            unit = "\t" if self.indent_type == "tabs" else " " * self.indent_width
            indent = next_indent(self.document[row][:column], unit)
            self._replace_via_keyboard("\n" + indent, start, end)
            return
        await super()._on_key(event)
