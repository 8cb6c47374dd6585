"""Chapters 1-4: the lesson files agree with the chapter list and carry the course's threads."""

from __future__ import annotations

import re

import pytest

from tutor.content.lessons import load_chapters, load_lessons

LESSONS, _ = load_lessons()
CHAPTERS = {chapter.number: chapter for chapter in load_chapters()}
FIRST_FOUR = [LESSONS[n] for n in (1, 2, 3, 4)]


@pytest.mark.parametrize("lesson", FIRST_FOUR, ids=lambda lesson: lesson.source.name)
def test_front_matter_labs_match_the_chapter_list(lesson):
    assert lesson.labs == CHAPTERS[lesson.chapter].labs
    linked = set(re.findall(r"\]\(lab:([a-z_]+)", lesson.body))
    assert linked <= set(lesson.labs), f"linked labs missing from the front matter: {linked}"


@pytest.mark.parametrize("lesson", FIRST_FOUR, ids=lambda lesson: lesson.source.name)
def test_jax_box_and_assigned_reading(lesson):
    assert "### The JAX way" in lesson.body
    assert "### Assigned reading" in lesson.body
    # jax is not in the runtime: no runnable snippet may import it
    assert not any("jax" in snippet.code for snippet in lesson.snippets)
    jax_box = lesson.body.split("### The JAX way", 1)[1].split("### Assigned reading", 1)[0]
    assert "not run" in jax_box


def _section(lesson, heading: str) -> str:
    body = lesson.body.split(heading, 1)[1]
    return re.split(r"\n## ", body, maxsplit=1)[0]


def test_chapter_one_teaches_broadcasting_promotion_and_indexing_copies():
    lesson = LESSONS[1]
    broadcasting = _section(lesson, "## 7. Broadcasting")
    runnable = [s for s in lesson.snippets if s.code in broadcasting]
    assert len(runnable) >= 4 and all(s.output for s in runnable)
    assert "broadcast_shapes" in broadcasting and "result_type" in broadcasting
    assert any("x[[1, 2]]" in s.code for s in lesson.snippets)


@pytest.mark.parametrize(
    ("chapter", "wrong"),
    [
        (1, "layout that every fresh tensor gets"),
        (1, "it never matters, because"),
        (1, "overflows above 65504"),
        (1, "writing into an\nexpanded tensor in place is refused"),
        (2, "(`PowBackward0` needed its saved"),
        (3, "converts every parameter and buffer"),
        (4, "why large models are trained in mixed precision"),
    ],
)
def test_corrected_claims_stay_corrected(chapter, wrong):
    assert wrong not in LESSONS[chapter].body


def test_second_backward_shows_the_walk_stopping_at_mul():
    snippet = next(s for s in LESSONS[2].snippets if "register_prehook" in s.code)
    visits = re.findall(r"visiting (\w+)", snippet.output)
    assert visits == ["SumBackward0", "AddBackward0", "MulBackward0"]
    assert snippet.output.rstrip().splitlines()[-1].startswith("RuntimeError: Trying to backward")


def test_gradient_accumulation_is_shown():
    snippet = next(s for s in LESSONS[4].snippets if "chunk(steps)" in s.code)
    assert snippet.output.rstrip().endswith("equal: True")
