"""Lesson files (Markdown with YAML front matter and runnable snippets) and the chapter list.

A lesson starts with front matter between two ``---`` lines. A runnable snippet is a fenced
block whose info string is ``python run``; its recorded output is the fenced block with info
string ``output`` that follows it (only blank lines may come between).
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from tutor.content.errors import translate
from tutor.content.labs import LAB_NAMES
from tutor.content.loader import display_path, read_text, validate_located
from tutor.content.models import Chapter, Lesson
from tutor.content.positions import parse_located
from tutor.content.problems import PackError, Problem
from tutor.settings import PROJECT_ROOT

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_BODY_KEYS = ("body", "snippets", "source")
_LAB_LINK = re.compile(r"\]\(<?lab:([A-Za-z0-9_-]*)")


@dataclass(frozen=True)
class SnippetBlock:
    """Where a snippet and its recorded output sit in the file (1-based, inclusive lines).

    ``output_start``/``output_end`` are the fence lines of the ``output`` block, or None when
    the snippet has no recorded output yet (a recorder inserts one after ``code_end``).
    """

    code: str
    output: str | None
    code_start: int
    code_end: int
    output_start: int | None
    output_end: int | None


@dataclass(frozen=True)
class _Fence:
    info: str
    start: int  # index of the opening line
    end: int  # index of the closing line
    content: str


def _fences(lines: list[str], first_line: int, file: str) -> list[_Fence]:
    fences: list[_Fence] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m or (m.group(1)[0] == "`" and "`" in m.group(2)):
            i += 1
            continue
        mark = m.group(1)
        close = re.compile(rf"^ {{0,3}}{re.escape(mark[0])}{{{len(mark)},}}\s*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if j == len(lines):
            raise PackError(
                [Problem(file, first_line + i, 1, "body", "this code fence is never closed")]
            )
        content = "".join(line + "\n" for line in lines[i + 1 : j])
        fences.append(_Fence(m.group(2).strip(), i, j, content))
        i = j + 1
    return fences


def find_snippets(body: str, first_line: int = 1, file: str = "<lesson>") -> list[SnippetBlock]:
    """The runnable snippets of a Markdown body; ``first_line`` is the body's line in the file."""
    lines = body.splitlines()
    fences = _fences(lines, first_line, file)
    blocks: list[SnippetBlock] = []
    for k, fence in enumerate(fences):
        if fence.info.split() != ["python", "run"]:
            continue
        output = fences[k + 1] if k + 1 < len(fences) else None
        between = lines[fence.end + 1 : output.start] if output else []
        if output is None or output.info != "output" or any(s.strip() for s in between):
            output = None
        blocks.append(
            SnippetBlock(
                code=fence.content,
                output=output.content if output else None,
                code_start=first_line + fence.start,
                code_end=first_line + fence.end,
                output_start=first_line + output.start if output else None,
                output_end=first_line + output.end if output else None,
            )
        )
    return blocks


def _unknown_lab(name: str) -> str:
    close = difflib.get_close_matches(name, LAB_NAMES, n=1)
    hint = f"did you mean `{close[0]}`?" if close else f"one of {', '.join(LAB_NAMES)}"
    return f"unknown lab `{name}` ({hint})"


def _lab_problems(labs, locator, lines: list[str], body_start: int, file: str) -> list[Problem]:
    """Unknown lab names in the front matter's ``labs`` and in ``lab:`` links of the body."""
    problems = []
    if isinstance(labs, list):
        for i, name in enumerate(labs):
            if isinstance(name, str) and name not in LAB_NAMES:
                line, col = locator.at(("labs", i))
                problems.append(Problem(file, line, col, f"labs[{i}]", _unknown_lab(name)))
    for i in range(body_start, len(lines)):
        for m in _LAB_LINK.finditer(lines[i]):
            if m.group(1) not in LAB_NAMES:
                message = _unknown_lab(m.group(1))
                problems.append(Problem(file, i + 1, m.start(1) + 1, "body", message))
    return problems


def parse_lesson(text: str, file: str) -> Lesson:
    """A Lesson from the text of a lesson file; raise PackError with every problem."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != "---":
        message = "a lesson starts with a `---` line, then YAML front matter"
        raise PackError([Problem(file, 1, 1, "front matter", message)])
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if end is None:
        message = "front matter is never closed (no second `---` line)"
        raise PackError([Problem(file, 1, 1, "front matter", message)])
    data, locator, problems = parse_located("".join(lines[1:end]), file, line_offset=1)
    if data is not None and not isinstance(data, dict):
        problems.append(Problem(file, 2, 1, "front matter", "expected `key: value` lines"))
    if problems:
        raise PackError(problems)
    data = data or {}
    for key in _BODY_KEYS:
        if key in data:
            line, col = locator.key_at((key,))
            problems.append(Problem(file, line, col, key, f"`{key}` is not a front matter key"))
    body = "".join(lines[end + 1 :])
    snippets = [
        {"code": b.code, "output": b.output, "line": b.code_start}
        for b in find_snippets(body, end + 2, file)
    ]
    problems += _lab_problems(data.get("labs"), locator, lines, end + 1, file)
    fields = {k: v for k, v in data.items() if k not in _BODY_KEYS}
    lesson = validate_located(
        Lesson, {**fields, "body": body, "snippets": snippets}, locator, problems
    )
    if problems:
        raise PackError(problems)
    return lesson


def load_lesson(path: str | os.PathLike[str]) -> Lesson:
    """Load one lesson file; raise PackError with file:line:col problems."""
    path = Path(path)
    file = display_path(path)
    lesson = parse_lesson(read_text(path, file), file)
    return lesson.model_copy(update={"source": path})


def _key_line(path: Path, key: str) -> int:
    """The line of a top-level front matter key (2 when it cannot be found)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next((i + 1 for i, line in enumerate(lines) if line.startswith(f"{key}:")), 2)


def load_lessons(
    folder: str | os.PathLike[str] | None = None,
) -> tuple[dict[int, Lesson], list[Problem]]:
    """Every ``*.md`` lesson of ``folder`` (default ``lessons/``) by chapter, and the problems
    of the files that could not be loaded (they are skipped)."""
    folder = Path(folder) if folder is not None else PROJECT_ROOT / "lessons"
    lessons: dict[int, Lesson] = {}
    problems: list[Problem] = []
    for path in sorted(folder.glob("*.md")):
        try:
            lesson = load_lesson(path)
        except PackError as exc:
            problems += exc.problems
            continue
        if lesson.chapter in lessons:
            other = display_path(lessons[lesson.chapter].source)
            message = f"chapter {lesson.chapter} already has a lesson: {other}"
            line = _key_line(path, "chapter")
            problems.append(Problem(display_path(path), line, 1, "chapter", message))
            continue
        lessons[lesson.chapter] = lesson
    return lessons, problems


def load_chapters(path: str | os.PathLike[str] | None = None) -> list[Chapter]:
    """The chapters listed in ``lessons/chapters.yaml`` (or ``path``), in order."""
    path = Path(path) if path is not None else PROJECT_ROOT / "lessons" / "chapters.yaml"
    file = display_path(path)
    data, locator, problems = parse_located(read_text(path, file), file)
    if not problems and not isinstance(data, list):
        problems.append(Problem(file, 1, 1, "chapters", "expected a list of chapters"))
    if problems:
        raise PackError(problems)

    chapters: list[Chapter] = []
    seen: set[int] = set()
    for i, item in enumerate(data):
        try:
            chapter = Chapter.model_validate(item)
        except ValidationError as exc:
            problems.extend(translate(exc, item, locator, Chapter, prefix=(i,)))
            continue
        if chapter.number in seen:
            line, col = locator.at((i, "number"))
            message = f"chapter {chapter.number} is listed twice"
            problems.append(Problem(file, line, col, f"[{i}].number", message))
        seen.add(chapter.number)
        chapters.append(chapter)
    if problems:
        raise PackError(problems)
    return chapters
