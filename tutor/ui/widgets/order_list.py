"""A list of lines the learner puts in order (keys or mouse); a line's code spans and emphasis
are drawn, its text is what the grader reads; a line too long for the list wraps under its own
text, not under its number."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tutor.ui.widgets.hanging import Hanging
from tutor.ui.widgets.inline_text import inline

MOVE = Binding.Group("Move line")
"""the footer shows the two move keys under one description (they fit at 80 columns)."""


class OrderList(OptionList):
    """Lines in the learner's current order; shift+up/down (or K/J) move the highlighted one."""

    BINDINGS = [
        Binding("shift+up,ctrl+up,K", "move(-1)", "Move up", key_display="⇧↑", group=MOVE),
        Binding("shift+down,ctrl+down,J", "move(1)", "Move down", key_display="⇧↓", group=MOVE),
    ]

    lines: reactive[list[str]] = reactive(list, always_update=True)
    """The lines, in the order the learner has put them."""

    @dataclass
    class Changed(Message):
        """The order changed."""

        lines: list[str]

    def watch_lines(self, lines: list[str]) -> None:
        keep = self.highlighted
        self.clear_options()
        self.add_options(
            [
                Option(Hanging(Content.styled(f"{i + 1:>2}  ", "dim"), inline(line)))
                for i, line in enumerate(lines)
            ]
        )
        if lines:
            self.highlighted = min(keep or 0, len(lines) - 1)

    def action_move(self, delta: int) -> None:
        """Move the highlighted line up (-1) or down (+1)."""
        i = self.highlighted
        if i is None or not 0 <= i + delta < len(self.lines):
            return
        lines = list(self.lines)
        lines[i], lines[i + delta] = lines[i + delta], lines[i]
        self.lines = lines
        self.highlighted = i + delta
        self.post_message(self.Changed(lines))
