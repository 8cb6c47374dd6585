"""Lesson files (front matter, body, snippets with recorded output) and the chapter list."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.labs import LAB_NAMES
from tutor.content.lesson_text import parse_lesson_text
from tutor.content.lessons import (
    load_chapters,
    load_lesson,
    load_lessons,
    parse_lesson,
)
from tutor.content.problems import PackError

LESSONS = Path(__file__).parent / "lessons"


def test_front_matter_body_and_snippets():
    lesson = load_lesson(LESSONS / "good" / "01-tensors.md")
    assert (lesson.chapter, lesson.title, lesson.labs, lesson.torch) == (
        1,
        "Tensors",
        ["stride"],
        "2.13.0",
    )
    assert lesson.body.startswith("\n# Tensors\n")
    assert lesson.source == LESSONS / "good" / "01-tensors.md"
    first, second, third = lesson.snippets
    assert first.code == "x = torch.arange(6).reshape(2, 3)\nprint(x.stride())\n"
    assert (first.output, first.line) == ("(3, 1)\n", 13)
    # longer fences, braces kept, blank lines allowed before the output block
    assert second.code == 'print({"braces": "{are fine}"})\n'
    assert (second.output, second.line) == ("{'braces': '{are fine}'}\n", 28)
    # not recorded yet
    assert (third.output, third.line) == (None, 37)


def test_plain_python_blocks_are_not_snippets():
    lesson = load_lesson(LESSONS / "good" / "01-tensors.md")
    assert all("y = x.t()" not in s.code for s in lesson.snippets)


def test_snippet_blocks_give_line_spans_for_recording():
    body = "text\n```python run\nprint(1)\n```\n\n```output\n1\n```\n```python run\npass\n```\n"
    first, second = parse_lesson_text(body).snippets
    spans = (first.open_idx, first.close_idx, first.output_open_idx, first.output_close_idx)
    assert spans == (1, 3, 5, 7) and first.line == 2
    assert first.output == "1\n"
    assert (second.open_idx, second.output_open_idx, second.output) == (8, None, None)


def test_output_block_must_follow_directly():
    body = "```python run\nprint(1)\n```\nsome prose\n```output\n1\n```\n"
    (snippet,) = parse_lesson_text(body).snippets
    assert snippet.output is None


def test_lesson_problems_have_positions():
    lessons, problems = load_lessons(LESSONS / "bad")
    assert lessons == {}
    shown = [f"{Path(p.file).name}:{p.line}:{p.col}: {p.field}: {p.message}" for p in problems]
    assert shown == [
        "03-typo.md:2:1: title: field required: `title` (the lesson's title)",
        "03-typo.md:3:1: titel: unknown key `titel` (did you mean `title`?)",
        "04-fence.md:7:1: body: this code fence is never closed",
        "05-labs.md:5:14: labs[1]: unknown lab `strid` (did you mean `stride`?)",
        f"05-labs.md:8:24: body: unknown lab `heatmap` (one of {', '.join(LAB_NAMES)})",
        "05-labs.md:10:18: body: unknown lab `strid` (did you mean `stride`?)",
    ]


def test_missing_front_matter():
    with pytest.raises(PackError) as info:
        parse_lesson("# No front matter\n", "x.md")
    assert str(info.value.problems[0]).startswith("x.md:1:1: front matter: a lesson starts")
    with pytest.raises(PackError) as info:
        parse_lesson("---\nchapter: 1\n", "x.md")
    assert "never closed" in info.value.problems[0].message


def test_good_folder_loads_by_chapter():
    lessons, problems = load_lessons(LESSONS / "good")
    assert problems == []
    assert sorted(lessons) == [1, 2]
    assert lessons[2].snippets == []


def test_chapters_of_the_course():
    chapters = load_chapters()
    assert [c.number for c in chapters] == list(range(1, 13))
    assert chapters[0].title == "Tensors"


def test_chapter_file_problems(tmp_path):
    path = tmp_path / "chapters.yaml"
    path.write_text(
        "- number: 1\n  title: A\n  thesis: t\n  part: i\n"
        "- number: 1\n  title: B\n  thesis: t\n  part: iii\n",
        encoding="utf-8",
    )
    with pytest.raises(PackError) as info:
        load_chapters(path)
    assert [f"{p.line}:{p.col}: {p.field}: {p.message}" for p in info.value.problems] == [
        "8:9: [1].part: expected 'i' or 'ii', got `iii`"
    ]


def test_two_lessons_for_one_chapter(tmp_path):
    source = (LESSONS / "good" / "02-autograd.md").read_text()
    (tmp_path / "02-a.md").write_text(source)
    (tmp_path / "02-b.md").write_text(source)
    lessons, problems = load_lessons(tmp_path)
    assert lessons[2].source.name == "02-a.md"
    (problem,) = problems
    assert (Path(problem.file).name, problem.line, problem.field) == ("02-b.md", 2, "chapter")
    assert problem.message.startswith("chapter 2 already has a lesson: ")


def test_chapter_listed_twice(tmp_path):
    path = tmp_path / "chapters.yaml"
    path.write_text(
        "- {number: 1, title: A, thesis: t, part: i}\n- {number: 1, title: B, thesis: t, part: i}\n"
    )
    with pytest.raises(PackError) as info:
        load_chapters(path)
    assert [f"{p.line}:{p.col}: {p.field}: {p.message}" for p in info.value.problems] == [
        "2:12: [1].number: chapter 1 is listed twice"
    ]
