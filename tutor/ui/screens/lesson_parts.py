"""Cut a lesson's Markdown into chunks the reader mounts a few at a time, and list its `lab:`
links (both from ``tutor.content.lesson_text``, the one parser of lesson text)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tutor.content.lesson_text import parse_lesson_text

#: prose longer than this many lines is split at its headings (or blank lines)
CHUNK_LINES = 40

_HEADING = re.compile(r"^#{1,6}\s")


@dataclass(frozen=True)
class Prose:
    """A run of Markdown without runnable snippets."""

    text: str


@dataclass(frozen=True)
class Run:
    """A runnable snippet: its code, recorded output, and index among the lesson's snippets."""

    index: int
    code: str
    output: str | None


Part = Prose | Run


def _split_prose(lines: list[str]) -> list[Prose]:
    """Split long prose before headings (else at blank lines) into chunks near CHUNK_LINES."""
    chunks: list[list[str]] = [[]]
    fence = False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        current = chunks[-1]
        at_break = not fence and (
            _HEADING.match(line) or (len(current) >= CHUNK_LINES and not line.strip())
        )
        if at_break and len(current) >= CHUNK_LINES // 4:
            chunks.append([])
        chunks[-1].append(line)
    return [Prose("\n".join(c).strip("\n")) for c in chunks if "".join(c).strip()]


def lesson_parts(body: str) -> list[Part]:
    """The lesson body as prose chunks and runnable snippets, in order."""
    doc = parse_lesson_text(body)
    lines = [line.rstrip("\r\n") for line in doc.lines]
    parts: list[Part] = []
    cursor = 0  # index of the first line not yet consumed
    for index, block in enumerate(doc.snippets):
        parts.extend(_split_prose(lines[cursor : block.open_idx]))
        parts.append(Run(index, block.code, block.output))
        last = block.output_close_idx if block.output_close_idx is not None else block.close_idx
        cursor = last + 1
    parts.extend(_split_prose(lines[cursor:]))
    return parts


def lab_links(body: str) -> list[tuple[str, str, dict[str, str] | None]]:
    """Every `lab:` link of a body as (link text, lab name, preset)."""
    return [(link.text, link.name, link.preset) for link in parse_lesson_text(body).links]
