"""The one reader of a lesson's Markdown, shared by the loader, the lesson screen and the
``tutor lesson check``/``record`` tools.

The text is parsed once with markdown-it-py (CommonMark, plus the front-matter plugin) into a
:class:`LessonText`: where the front matter is, every runnable snippet (a fence whose info string
is ``python run``) with its recorded output (the ``output`` fence that is the next block after
it: only blank lines may come between), and every ``lab:`` link of the prose. Positions are
0-based indexes into :func:`split_lines` of the same text, so a recorder can rewrite one block
and leave every other byte as it was.

A fence that is never closed is reported in ``problems`` (CommonMark would run it to the end of
the file, silently swallowing the rest of the lesson); the loader refuses such a lesson, and the
recorder refuses to write into it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import unquote

from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

RUN_INFO = ("python", "run")
#: an option after ``python run`` in a snippet's info string: ``limits=compile``, ``runtime=xla``
_OPTION = re.compile(r"^(limits|runtime)=[A-Za-z0-9_-]+$")
#: a front matter line giving every snippet's default: ``limits: compile``, ``runtime: xla``
_DEFAULT_LINE = re.compile(r"""^(limits|runtime):\s*["']?([A-Za-z0-9_-]+)["']?\s*(#.*)?$""")
OUTPUT_INFO = "output"

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_LAB_LINK = re.compile(r"\[([^\]]*)\]\(<?lab:")


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark").use(front_matter_plugin)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` with their endings, as markdown-it counts them (``\\n``, ``\\r\\n``
    or ``\\r``); joining them gives the text back byte for byte."""
    return [m.group(0) for m in _LINE.finditer(text) if m.group(0)]


@dataclass
class SnippetBlock:
    """One ``python run`` fence and its recorded ``output`` fence, located by line index."""

    code: str
    open_idx: int
    """index of the code fence's opening line"""
    close_idx: int
    """index of the code fence's closing line"""
    output: str | None = None
    """the recorded output, None when not recorded yet"""
    output_open_idx: int | None = None
    output_close_idx: int | None = None
    limits: str | None = None
    """the sandbox limits profile: ``limits=NAME`` in the info string, else the front
    matter's ``limits:``, else None (the default profile)"""
    runtime: str | None = None
    """the sandbox runtime: ``runtime=NAME`` in the info string, else the front matter's
    ``runtime:``, else None (the runtime tutor runs on)"""

    @property
    def line(self) -> int:
        """The 1-based line of the code fence's opening line (what messages name)."""
        return self.open_idx + 1


@dataclass(frozen=True)
class LabLink:
    """A Markdown link to a lab: ``[text](lab:NAME?key=value&...)``."""

    text: str
    name: str
    preset: dict[str, str] | None
    line: int
    """1-based line of the link"""
    col: int
    """1-based column of the lab name"""


@dataclass
class LessonText:
    """A lesson's Markdown, parsed once."""

    lines: list[str]
    front_matter: tuple[int, int] | None = None
    """indexes of the ``---`` lines around the front matter, None without front matter"""
    snippets: list[SnippetBlock] = field(default_factory=list)
    links: list[LabLink] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)
    """(1-based line, message): fences never closed"""

    @property
    def body_start(self) -> int:
        """Index of the first line after the front matter."""
        return self.front_matter[1] + 1 if self.front_matter else 0


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


def _closed(lines: list[str], start: int, end: int, markup: str) -> bool:
    """Whether the fence opened on ``start`` ends with a closing fence on line ``end - 1``."""
    if end - 1 <= start or end > len(lines):
        return False
    bare = lines[end - 1].strip()
    return len(bare) >= len(markup) and set(bare) == {markup[0]}


def _links(lines: list[str], start: int, end: int) -> list[LabLink]:
    """The ``lab:`` links written on lines ``start`` to ``end - 1`` (prose, not code)."""
    found = []
    for i in range(start, end):
        line = lines[i].rstrip("\r\n")
        for m in _LAB_LINK.finditer(line):
            begin = m.end() - len("lab:")
            depth, stop = 0, begin
            while stop < len(line):  # the destination may hold balanced parentheses
                if line[stop] == "(":
                    depth += 1
                elif line[stop] == ")":
                    if depth == 0:
                        break
                    depth -= 1
                stop += 1
            parsed = parse_lab_href(line[begin:stop].rstrip(">").strip())
            if parsed:
                found.append(LabLink(m.group(1), parsed[0], parsed[1], i + 1, begin + 5))
    return found


def parse_lesson_text(text: str) -> LessonText:
    """Parse a lesson file's text (or a body without front matter)."""
    lines = split_lines(text)
    doc = LessonText(lines)
    pending: SnippetBlock | None = None  # the snippet whose output fence may come next
    for token in _markdown().parse(text):
        if token.map is None:  # closing tokens and inline children carry no lines
            continue
        start, end = token.map
        if token.type == "front_matter":
            doc.front_matter = (start, end - 1)
            continue
        if token.type == "inline":
            doc.links += _links(lines, start, end)
        if token.type != "fence":
            pending = None  # any other block between a snippet and a fence: not its output
            continue
        if not _closed(lines, start, end, token.markup):
            doc.problems.append((start + 1, "this code fence is never closed"))
            pending = None
            continue
        info = token.info.split()
        if tuple(info[:2]) == RUN_INFO and all(_OPTION.match(w) for w in info[2:]):
            pending = SnippetBlock(token.content, start, end - 1)
            options = dict(w.split("=", 1) for w in info[2:])
            pending.limits = options.get("limits")
            pending.runtime = options.get("runtime")
            doc.snippets.append(pending)
        elif info == [OUTPUT_INFO] and pending is not None:
            pending.output = token.content
            pending.output_open_idx, pending.output_close_idx = start, end - 1
            pending = None
        else:
            pending = None
    defaults = front_matter_defaults(doc)
    for block in doc.snippets:
        block.limits = block.limits or defaults.get("limits")
        block.runtime = block.runtime or defaults.get("runtime")
    return doc


def front_matter_defaults(doc: LessonText) -> dict[str, str]:
    """The front matter's ``limits:`` and ``runtime:`` values (plain words) that it gives."""
    found: dict[str, str] = {}
    if doc.front_matter is None:
        return found
    for i in range(doc.front_matter[0] + 1, doc.front_matter[1]):
        m = _DEFAULT_LINE.match(doc.lines[i])
        if m:
            found.setdefault(m.group(1), m.group(2))
    return found


def parse_snippets(text: str) -> list[SnippetBlock]:
    """The runnable snippets of a lesson's text (``parse_lesson_text(text).snippets``)."""
    return parse_lesson_text(text).snippets
