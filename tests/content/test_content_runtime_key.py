"""`runtime:` in a lesson's front matter and `runtime=xla` in a snippet's info string: `lesson
check` and `record` run each snippet on its runtime, and skip it, saying why, when that
runtime is not built."""

from __future__ import annotations

import textwrap

import pytest

from tutor.commands.lesson_run import check_lesson, record_lesson
from tutor.content.lesson_text import parse_snippets
from tutor.content.lessons import parse_lesson
from tutor.content.problems import PackError

pytestmark = pytest.mark.timeout(600)

LESSON = textwrap.dedent(
    """\
    ---
    chapter: 9
    title: Lazy
    thesis: lazy tensors
    ---

    ```python run runtime=xla
    import torch_xla
    x = torch.arange(4.0, device=torch_xla.device())
    print(x.device, (x * 3).sum().item())
    ```

    ```python run
    print(torch.arange(4.0).sum().item())
    ```
    """
)


def test_snippets_take_the_info_string_then_the_front_matter():
    assert [b.runtime for b in parse_snippets(LESSON)] == ["xla", None]
    everywhere = LESSON.replace("thesis: lazy tensors\n", "thesis: t\nruntime: xla\n")
    assert [b.runtime for b in parse_snippets(everywhere)] == ["xla", "xla"]
    assert parse_lesson(everywhere, "09-lazy.md").runtime == "xla"
    with pytest.raises(PackError) as err:
        parse_lesson(LESSON.replace("runtime=xla", "runtime=gpu"), "09-lazy.md")
    assert "unknown runtime 'gpu'" in str(err.value)


def test_an_xla_snippet_is_recorded_and_checked_on_xla(tmp_path, sandbox, xla_sandbox):
    from tutor.sandbox.pool import SandboxPool

    lesson = tmp_path / "09-lazy.md"
    lesson.write_text(LESSON)
    pool = SandboxPool(given={None: sandbox, "xla": xla_sandbox})
    report = record_lesson(lesson, pool)
    assert report.ok and report.recorded == 2, report.as_dict()
    text = lesson.read_text()
    assert "```output\nxla:0 18.0\n```" in text and "```output\n6.0\n```" in text
    assert check_lesson(lesson, pool).ok
    lesson.write_text(text.replace("xla:0 18.0", "xla:0 19.0"))
    (drift,) = check_lesson(lesson, pool).drifts
    assert drift.actual == "xla:0 18.0"


def test_the_front_matter_names_the_torch_of_the_lessons_own_runtime(
    tmp_path, sandbox, xla_sandbox
):
    from tutor.commands.lesson_run import runtime_torch_version
    from tutor.content.lesson_outputs import recorded_torch_version
    from tutor.sandbox.pool import SandboxPool

    pool = SandboxPool(given={None: sandbox, "xla": xla_sandbox})
    xla, default = runtime_torch_version(xla_sandbox), runtime_torch_version(sandbox)
    assert xla != default  # torch 2.9 beside torch_xla; the default runtime's is newer
    lesson = tmp_path / "09-lazy.md"
    for front, torch in (("runtime: xla\n", xla), ("", default)):
        lesson.write_text(LESSON.replace("thesis: lazy tensors\n", "thesis: lazy\n" + front))
        assert record_lesson(lesson, pool).ok
        assert recorded_torch_version(lesson.read_text()) == torch
        # as `tutor lesson record` calls it, with the default runtime's version read once
        assert record_lesson(lesson, pool, version=default).ok
        assert recorded_torch_version(lesson.read_text()) == torch


def test_a_runtime_not_built_skips_its_snippets_and_fails_when_required(
    tmp_path, monkeypatch, sandbox
):
    monkeypatch.setenv("TUTOR_RUNTIME_XLA", str(tmp_path / "no-such-runtime"))
    monkeypatch.delenv("TUTOR_REQUIRE_XLA", raising=False)  # CI sets it; required is tried below
    lesson = tmp_path / "09-lazy.md"
    lesson.write_text(LESSON)
    needs = "needs the xla runtime: run `make xla-runtime`"
    report = record_lesson(lesson, sandbox, root=tmp_path)
    assert report.ok and report.skipped == [f"09-lazy.md:7 {needs}"]
    assert "```output\n6.0\n```" in lesson.read_text()  # the other snippet ran
    line = parse_snippets(lesson.read_text())[0].line  # (record added `torch:` above it)
    report = check_lesson(lesson, sandbox, root=tmp_path)
    assert report.ok and report.skipped == [f"09-lazy.md:{line} {needs}"]
    monkeypatch.setenv("TUTOR_REQUIRE_XLA", "1")
    (drift,) = check_lesson(lesson, sandbox, root=tmp_path).drifts
    assert drift.line == line and "TUTOR_REQUIRE_XLA=1" in drift.message


def test_check_names_the_torch_each_lesson_ran_with(tmp_path, sandbox, xla_sandbox):
    """`tutor lesson check` reports the torch of each lesson's own runtime: its summary line
    names the xla runtime's torch beside the default's, and an xla lesson recorded with the
    xla runtime's torch is not noted as recorded with another torch."""
    from tutor.commands.lesson_run import runtime_torch_version
    from tutor.commands.lesson_tools import _torches
    from tutor.sandbox.pool import SandboxPool

    pool = SandboxPool(given={None: sandbox, "xla": xla_sandbox})
    xla, default = runtime_torch_version(xla_sandbox), runtime_torch_version(sandbox)
    lazy, plain = tmp_path / "09-lazy.md", tmp_path / "01-plain.md"
    lazy.write_text(LESSON.replace("thesis: lazy tensors\n", "thesis: lazy\nruntime: xla\n"))
    plain.write_text(LESSON.replace("```python run runtime=xla", "```python run"))
    assert record_lesson(lazy, pool, version=default).ok
    assert record_lesson(plain, pool, version=default).ok
    reports = [check_lesson(p, pool, version=default) for p in (plain, lazy)]
    assert [(r.runtime, r.ran, r.torch) for r in reports] == [
        (None, default, default),
        ("xla", xla, xla),
    ]
    assert _torches(default, reports) == f"torch {default}; xla runtime: torch {xla}"
    assert _torches(default, reports[:1]) == f"torch {default}"
