"""Python code, highlighted, whose long lines wrap as visible continuations.

A plain soft wrap starts the rest of a long line at the left margin, where it reads as a new
statement. Here the rest hangs under the line's own indentation, marked with ``↪``."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.syntax import Syntax
from rich.text import Text

MARK = "↪ "
"""what starts a continuation."""


def breaks(plain: str, width: int, rest_width: int) -> list[tuple[int, int]]:
    """Where to cut ``plain``: (start, end) pieces, the first at most ``width`` long, the others
    at most ``rest_width``; a cut falls after a space when one is near enough, else mid-word."""
    pieces: list[tuple[int, int]] = []
    start, room = 0, max(1, width)
    while len(plain) - start > room:
        space = plain.rfind(" ", start, start + room)
        end = space + 1 if space > start + room // 3 else start + room
        pieces.append((start, end))
        start, room = end, max(1, rest_width)
    pieces.append((start, len(plain)))
    return pieces


class WrappedCode:
    """A rich renderable: ``code`` highlighted as ``lexer`` (Python unless told) with
    ``theme``, wrapped to the width it is given, each continuation indented under its line and
    marked with ``↪``."""

    def __init__(self, code: str, theme: str = "ansi_dark", lexer: str = "python") -> None:
        self.code = code
        self.theme = theme
        self.lexer = lexer

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        highlighted = Syntax(self.code, self.lexer, theme=self.theme).highlight(self.code)
        highlighted.rstrip()
        out = Text(no_wrap=True, overflow="crop")
        for number, line in enumerate(highlighted.split("\n", allow_blank=True)):
            if number:
                out.append("\n")
            plain = line.plain
            hang = min(len(plain) - len(plain.lstrip(" ")) + 4, width // 2)
            rest_width = width - hang - len(MARK)
            for i, (start, end) in enumerate(breaks(plain, width, rest_width)):
                piece = line[start:end]
                if i:
                    piece.rstrip()
                    out.append("\n" + " " * hang)
                    out.append(MARK, style="dim")
                out.append_text(piece)
        yield out
