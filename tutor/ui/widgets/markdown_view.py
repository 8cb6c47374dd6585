"""Markdown whose code blocks wrap instead of being cut: lesson prose, drill prompts and
explanations.

Textual's fence keeps each code line on one row and scrolls it sideways, so at 80 columns the
end of a line (often the comment that explains it) is simply not there. Here a long line wraps
the way lesson snippets do: the rest hangs under the line's indentation, marked with ``↪``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Markdown, Static
from textual.widgets.markdown import MarkdownBlock, MarkdownFence

from tutor.ui.widgets.wrapped_code import WrappedCode


class WrappedFence(MarkdownFence):
    """A fenced or indented code block drawn by ``WrappedCode``, never wider than the view."""

    DEFAULT_CSS = """
    WrappedFence {
        overflow: hidden hidden;
        & > Static { padding: 1 2; }
    }
    WrappedFence:ansi > Static { padding: 1 0; }
    """

    @property
    def allow_horizontal_scroll(self) -> bool:
        return False

    def _wrapped(self) -> WrappedCode:
        theme = "ansi_dark" if self.app.current_theme.dark else "ansi_light"
        return WrappedCode(self.code, theme=theme, lexer=self.lexer or "text")

    def compose(self) -> ComposeResult:
        yield Static(self._wrapped(), classes="fence-code")

    def set_content(self, content: Content) -> None:
        """Redraw (the theme or the code changed): the highlight is ``WrappedCode``'s own."""
        self._content = content
        for static in self.query(".fence-code").results(Static):
            static.update(self._wrapped())


class MarkdownView(Markdown):
    """Markdown with ``WrappedFence`` code blocks (links are the screen's to open)."""

    BLOCKS: dict[str, type[MarkdownBlock]] = {
        **Markdown.BLOCKS,
        "fence": WrappedFence,
        "code_block": WrappedFence,
    }
