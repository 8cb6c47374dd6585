"""Cut a lesson's Markdown into chunks the reader mounts a few at a time, and read its
`lab:` links."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from tutor.content.lessons import find_snippets

#: prose longer than this many lines is split at its headings (or blank lines)
CHUNK_LINES = 40

_LAB_LINK = re.compile(r"\[([^\]]+)\]\(<?lab:")
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
    lines = body.splitlines()
    parts: list[Part] = []
    cursor = 0  # 0-based index of the first line not yet consumed
    for index, block in enumerate(find_snippets(body)):
        parts.extend(_split_prose(lines[cursor : block.code_start - 1]))
        parts.append(Run(index, block.code, block.output))
        cursor = block.output_end if block.output_end is not None else block.code_end
    parts.extend(_split_prose(lines[cursor:]))
    return parts


def parse_lab_href(href: str) -> tuple[str, dict[str, str] | None] | None:
    """``lab:stride?expr=...`` -> ("stride", {"expr": "..."}); None if not a lab link."""
    if not href.startswith("lab:"):
        return None
    name, _, query = href[4:].partition("?")
    preset: dict[str, str] = {}
    for pair in filter(None, query.split("&")):
        key, _, value = pair.partition("=")
        preset[unquote(key)] = unquote(value)
    return name.strip(), preset or None


def lab_links(body: str) -> list[tuple[str, str, dict[str, str] | None]]:
    """Every `lab:` link of a body as (link text, lab name, preset)."""
    links = []
    for m in _LAB_LINK.finditer(body):
        start = m.end() - len("lab:")
        depth, end = 0, start
        while end < len(body) and body[end] != "\n":
            if body[end] == "(":
                depth += 1
            elif body[end] == ")":
                if depth == 0:
                    break
                depth -= 1
            end += 1
        parsed = parse_lab_href(body[start:end].rstrip(">").strip())
        if parsed:
            links.append((m.group(1), parsed[0], parsed[1]))
    return links
