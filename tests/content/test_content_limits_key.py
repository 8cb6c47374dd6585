"""`limits:` in packs, drills and lessons names the sandbox limits profile a run gets."""

from __future__ import annotations

import textwrap
from types import SimpleNamespace

import pytest

from tutor.content.lesson_text import parse_snippets
from tutor.content.lessons import parse_lesson
from tutor.content.loader import parse_pack
from tutor.content.problems import PackError
from tutor.grading.engine import plan
from tutor.sandbox.limits import PROFILES

PACK = textwrap.dedent(
    """
    pack: compiled
    title: Compiled
    chapter: 10
    limits: compile
    drills:
      - id: shape
        kind: predict
        prompt: shape?
        setup: x = torch.ones(2)
        ask: x.shape
      - id: tight
        kind: predict
        prompt: sum?
        limits: default
        setup: x = torch.ones(2)
        ask: x.sum()
    """
)


def test_drills_inherit_the_packs_limits_and_may_override_them():
    pack, _ = parse_pack(PACK, "compiled.yaml")
    assert [d.limits for d in pack.drills] == ["compile", "default"]
    profiles = [
        plan(SimpleNamespace(full_id="x", drill=d), "2", 1).call.profile for d in pack.drills
    ]
    assert profiles == ["compile", "default"]
    assert set(profiles) <= set(PROFILES)


def test_an_unknown_profile_is_an_error_at_its_line():
    with pytest.raises(PackError) as err:
        parse_pack(PACK.replace("limits: default", "limits: fast"), "compiled.yaml")
    (problem,) = err.value.problems
    assert (problem.line, problem.field) == (15, "drills[1].limits")
    assert "compile" in problem.message


LESSON = textwrap.dedent(
    """\
    ---
    chapter: 10
    title: Compile
    thesis: compiling
    limits: compile
    ---

    ```python run
    print(1)
    ```

    ```python run limits=default
    print(2)
    ```
    """
)


def test_snippets_take_the_info_string_then_the_front_matter():
    assert [b.limits for b in parse_snippets(LESSON)] == ["compile", "default"]
    lesson = parse_lesson(LESSON, "10-compile.md")
    assert lesson.limits == "compile"
    assert [s.limits for s in lesson.snippets] == ["compile", "default"]
    plain = LESSON.replace("limits: compile\n", "")
    assert [b.limits for b in parse_snippets(plain)] == [None, "default"]
    with pytest.raises(PackError):
        parse_lesson(LESSON.replace("limits=default", "limits=fast"), "10-compile.md")
