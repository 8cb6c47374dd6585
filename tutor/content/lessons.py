"""Lesson files (Markdown with YAML front matter and runnable snippets) and the chapter list.

A lesson starts with front matter between two ``---`` lines. Its Markdown (snippets, recorded
outputs, lab links) is read by ``tutor.content.lesson_text``, the one parser of lesson text.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tutor.content.errors import translate
from tutor.content.labs import LAB_NAMES
from tutor.content.lesson_text import LessonText, parse_lesson_text
from tutor.content.loader import display_path, read_text, validate_located
from tutor.content.models import Chapter, Lesson
from tutor.content.positions import Locator, parse_located
from tutor.content.problems import PackError, Problem
from tutor.settings import PROJECT_ROOT

_BODY_KEYS = ("body", "snippets", "source")


def _unknown_lab(name: str) -> str:
    close = difflib.get_close_matches(name, LAB_NAMES, n=1)
    hint = f"did you mean `{close[0]}`?" if close else f"one of {', '.join(LAB_NAMES)}"
    return f"unknown lab `{name}` ({hint})"


def _lab_problems(labs: Any, locator: Locator, doc: LessonText, file: str) -> list[Problem]:
    """Unknown lab names in the front matter's ``labs`` and in ``lab:`` links of the body."""
    problems = []
    if isinstance(labs, list):
        for i, name in enumerate(labs):
            if isinstance(name, str) and name not in LAB_NAMES:
                line, col = locator.at(("labs", i))
                problems.append(Problem(file, line, col, f"labs[{i}]", _unknown_lab(name)))
    for link in doc.links:
        if link.name not in LAB_NAMES:
            problems.append(Problem(file, link.line, link.col, "body", _unknown_lab(link.name)))
    return problems


def parse_lesson(text: str, file: str) -> Lesson:
    """A Lesson from the text of a lesson file; raise PackError with every problem."""
    doc = parse_lesson_text(text)
    lines = doc.lines
    if not lines or lines[0].rstrip() != "---":
        message = "a lesson starts with a `---` line, then YAML front matter"
        raise PackError([Problem(file, 1, 1, "front matter", message)])
    if doc.front_matter is None:
        message = "front matter is never closed (no second `---` line)"
        raise PackError([Problem(file, 1, 1, "front matter", message)])
    end = doc.front_matter[1]
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
        {
            "code": b.code,
            "output": b.output,
            "line": b.line,
            "limits": b.limits,
            "runtime": b.runtime,
        }
        for b in doc.snippets
    ]
    problems += [Problem(file, line, 1, "body", message) for line, message in doc.problems]
    problems += _lab_problems(data.get("labs"), locator, doc, file)
    fields = {k: v for k, v in data.items() if k not in _BODY_KEYS}
    lesson: Lesson = validate_located(
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
            other = display_path(lessons[lesson.chapter].source or path)
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
