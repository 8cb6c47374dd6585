"""Inline Markdown for the short texts a pack author writes outside a prompt: choice answers,
order lines, hints, and the grader's feedback that quotes them.

Code spans follow CommonMark: a run of backticks opens a span that the next run of the same
length closes, so ``` ``a `b` c`` ``` quotes a line that holds backticks itself. Emphasis is
narrower than CommonMark on purpose: ``*word*`` and ``**words**`` only around plain words, so
code such as ``a*b*c`` or ``f(*args, **kw)`` in an order line is never mangled. Everything else
is literal text (never Rich or Textual markup): these texts may come from a pack or from a
learner's exception."""

from __future__ import annotations

import re

from textual.content import Content, Span

CODE = "$text-warning on $warning 10%"
"""how a code span looks (as the Markdown widget draws one)."""

_TICKS = re.compile(r"`+")
_EMPHASIS = re.compile(
    r"(?<![\w*])(\*\*|\*)([A-Za-z](?:[A-Za-z' -]*[A-Za-z])?)\1(?![\w*])",
)


def _code_spans(text: str) -> list[tuple[int, int, int, int]]:
    """(start, end, body start, body end) of every code span, in order."""
    spans: list[tuple[int, int, int, int]] = []
    at = 0
    while (opening := _TICKS.search(text, at)) is not None:
        run = opening.group()
        closing = next((m for m in _TICKS.finditer(text, opening.end()) if m.group() == run), None)
        if closing is None:
            at = opening.end()  # an unmatched run is literal backticks
            continue
        body_start, body_end = opening.end(), closing.start()
        body = text[body_start:body_end]
        if len(body) > 2 and body.startswith(" ") and body.endswith(" ") and body.strip():
            body_start, body_end = body_start + 1, body_end - 1
        spans.append((opening.start(), closing.end(), body_start, body_end))
        at = closing.end()
    return spans


def _plain(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """``text`` with its emphasis marks removed, and where the emphasis goes."""
    out: list[str] = []
    styles: list[tuple[int, int, str]] = []
    at, length = 0, 0
    for match in _EMPHASIS.finditer(text):
        before = text[at : match.start()]
        out.append(before)
        length += len(before)
        words = match.group(2)
        style = "bold" if match.group(1) == "**" else "italic"
        styles.append((length, length + len(words), style))
        out.append(words)
        length += len(words)
        at = match.end()
    out.append(text[at:])
    return "".join(out), styles


def inline(text: str, style: str = "") -> Content:
    """``text`` drawn with its code spans and emphasis (``style`` under all of it)."""
    pieces: list[str] = []
    spans: list[Span] = []
    length = 0

    def add(piece: str, marks: list[tuple[int, int, str]]) -> None:
        nonlocal length
        spans.extend(Span(length + s, length + e, mark) for s, e, mark in marks)
        pieces.append(piece)
        length += len(piece)

    at = 0
    for start, end, body_start, body_end in _code_spans(text):
        add(*_plain(text[at:start]))
        body = text[body_start:body_end]
        add(body, [(0, len(body), CODE)])
        at = end
    add(*_plain(text[at:]))
    if style:
        spans.insert(0, Span(0, length, style))
    return Content("".join(pieces), spans=spans)
