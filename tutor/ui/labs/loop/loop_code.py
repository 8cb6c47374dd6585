"""The five lines of the training loop, with a cursor on the line that ran last."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from tutor.ui.widgets.panels import Padded


class LoopCode(Padded, can_focus=True):
    """Shows the loop's lines as code, the last-run line marked with ▶ and highlighted."""

    DEFAULT_CSS = """
    LoopCode > .loop-code--cursor {
        background: $primary 30%;
        text-style: bold;
    }
    LoopCode > .loop-code--missing {
        color: $text-muted;
        text-style: italic;
    }
    """
    COMPONENT_CLASSES = {"loop-code--cursor", "loop-code--missing"}

    lines: reactive[list[str]] = reactive(list, layout=True)
    """the code of each line, in the order it runs."""
    cursor: reactive[int] = reactive(-1)
    """index of the line that ran last (-1: none yet)."""
    note: reactive[str] = reactive("", layout=True)
    """a dim, unnumbered line under the loop (e.g. how evaluation runs)."""

    def render(self) -> Text:
        """The lines, numbered, with the cursor."""
        text = Text()
        cursor_style = self.get_component_rich_style("loop-code--cursor")
        missing_style = self.get_component_rich_style("loop-code--missing")
        for i, line in enumerate(self.lines):
            mark = "▶" if i == self.cursor else " "
            row = Text(f"{mark} {i + 1}  {line}")
            if line.lstrip().startswith("#"):
                row.stylize(missing_style)
            if i == self.cursor:
                row.stylize(cursor_style)
            if i:
                text.append("\n")
            text.append_text(row)
        if self.note:
            note = Text(f"\n   {self.note}")
            note.stylize(missing_style if "#" in self.note else "dim")
            text.append_text(note)
        return text
