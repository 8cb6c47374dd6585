"""The honesty rule: every snippet of every lesson re-runs in the sandbox and prints exactly its
recorded output. One test per snippet, named ``lessons/NN-slug.md:LINE``, so a failure points at
the snippet that drifted. The run is the session's one run of that snippet (``course``)."""

from __future__ import annotations

import re

import pytest

from tutor.commands.lesson_run import lesson_files
from tutor.content.lesson_text import parse_snippets
from tutor.settings import PROJECT_ROOT

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")


def _snippets() -> list:
    params = []
    for path in lesson_files(PROJECT_ROOT):
        rel = path.relative_to(PROJECT_ROOT).as_posix()
        for block in parse_snippets(path.read_text(encoding="utf-8")):
            params.append(pytest.param(path, block.line, block.runtime, id=f"{rel}:{block.line}"))
    return params


SNIPPETS = _snippets()


def test_the_lessons_have_snippets():
    assert len(SNIPPETS) >= 20, "expected the lessons of chapters 1 and 2 at least"


@pytest.mark.parametrize(("path", "line", "runtime"), SNIPPETS)
def test_snippet_output_is_real(path, line, runtime, course, request):
    """A snippet declaring ``runtime=xla`` runs on the xla runtime (skipped where it is not
    built, a failure with TUTOR_REQUIRE_XLA=1)."""
    xla = request.getfixturevalue("xla_sandbox") if runtime == "xla" else None
    drifts = course.drifts(path, line, xla)
    assert not drifts, "\n".join(f"{d}\n{d.diff or d.actual}" for d in drifts)


@pytest.mark.parametrize("path", lesson_files(PROJECT_ROOT), ids=lambda p: p.name)
def test_lesson_names_the_torch_that_recorded_it(path):
    text = path.read_text(encoding="utf-8")
    if not parse_snippets(text):
        pytest.skip("no runnable snippets")
    front = text.split("---", 2)[1]
    assert re.search(r"^torch:\s*\"?\d+\.\d+", front, re.M), "front matter lacks `torch:`"
