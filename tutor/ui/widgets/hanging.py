"""A label with text that wraps under itself (a hanging indent), never back under the label:
a numbered order line reads as one item however many rows it takes."""

from __future__ import annotations

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual


class Hanging(Visual):
    """``label`` on the first row; ``body`` wrapped in the columns to its right."""

    def __init__(self, label: Content, body: Content) -> None:
        self.label = label
        self.body = body

    @property
    def indent(self) -> int:
        """The columns the label takes, kept blank under it on every further row."""
        return self.label.cell_length

    def _body_width(self, width: int) -> int:
        return max(1, width - self.indent)

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        body = self.body.render_strips(self._body_width(width), None, style, options)
        label = self.label.render_strips(self.indent, 1, style, options)[0]
        blank = Strip.blank(self.indent, style.rich_style)
        rows = [Strip.join([label if i == 0 else blank, row]) for i, row in enumerate(body)]
        return rows[:height] if height is not None else rows

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        room = self._body_width(container_width)
        return self.indent + self.body.get_optimal_width(rules, room)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.body.get_height(rules, self._body_width(width))
