"""The facts COURSE.md lists for chapter 7, checked twice.

Each fact must (1) appear in the recorded output of a lesson snippet, and (2) come out of that
same snippet again when real torch runs it now in the sandbox. The drill that teaches the
decomposition of `linear` is checked the same way: its setup and ask run in the sandbox with the
params of the lesson's example, and the truth torch computes is the fact.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.commands.lesson_run import run_snippet
from tutor.content.lesson_outputs import normalise
from tutor.content.lessons import load_lesson
from tutor.content.loader import load_pack
from tutor.grading.variants import render
from tutor.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "lessons" / "07-graphs.md"
PACK = ROOT / "drills" / "07-graphs.yaml"

# (what COURSE.md says, the text torch prints for it in the lesson)
FACTS: list[tuple[str, str]] = [
    ("export gives an ATen graph", "call_function  linear     aten.linear.default"),
    ("the graph lifts parameters into placeholders", "placeholder    p_0_weight p_0_weight"),
    ("signature: parameters", "parameters:   ['0.weight', '0.bias', '1.weight', '1.bias']"),
    (
        "signature: buffers",
        "buffers:      ['1.running_mean', '1.running_var', '1.num_batches_tracked']",
    ),
    ("signature: user inputs", "user inputs:  ['input']"),
    ("signature: user outputs", "user outputs: ['batch_norm']"),
    ("exported histogram", "exported:   {'aten.linear.default': 2, 'aten.relu.default': 1}"),
    (
        "run_decompositions: linear -> permute + addmm",
        "decomposed: {'aten.permute.default': 2, 'aten.addmm.default': 2,",
    ),
    ("shapes are specialised", "AssertionError: Guard failed: input.size()[0] == 3"),
    ("a Dim accepts other batches", "64 (64, 2)"),
    ("export refuses data-dependent control flow", "GuardOnDataDependentSymNode"),
    ("symbolic_trace keeps modules whole", "call_module  0"),
    ("make_fx records the backward as ATen", "'aten.cos.default', 'aten.mul.Tensor'"),
    (
        "eager dispatches the same ops",
        "['aten.t.default', 'aten.addmm.default', 'aten.relu.default',",
    ),
]


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox() as sb:
        yield sb


@pytest.fixture(scope="module")
def fresh(sandbox):
    """Run a lesson snippet in the sandbox once per module; cache its fresh output."""
    cache: dict[int, str] = {}

    def run(index: int, code: str) -> str:
        if index not in cache:
            cache[index] = run_snippet(sandbox, code, timeout=60.0)
        return cache[index]

    return run


def _recorded_snippet(needle: str) -> tuple[int, str]:
    """The (index, code) of the first snippet whose recorded output shows ``needle``."""
    lesson = load_lesson(LESSON)
    hits = [
        (i, s.code)
        for i, s in enumerate(lesson.snippets)
        if s.output is not None and needle in normalise(s.output)
    ]
    assert hits, f"no recorded output of lesson 7 shows {needle!r}"
    return hits[0]


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_course_fact_recorded_and_reproduced(fresh, fact, needle):
    index, code = _recorded_snippet(needle)
    assert needle in fresh(index, code), f"torch no longer prints {needle!r} ({fact})"


def test_lesson_records_the_torch_version():
    lesson = load_lesson(LESSON)
    assert lesson.torch
    assert all(s.output is not None for s in lesson.snippets), "unrecorded snippet"


def test_drill_truth_is_permute_then_addmm(sandbox):
    drill = next(d for d in load_pack(PACK).drills if d.id == "linear-decomposes-to")
    params = {"bias": True, "shape": "4, 3"}
    assert params["shape"] in drill.params["shape"].choice
    code = render(drill.setup, params) + f"\nprint(repr({drill.ask.strip()}))\n"
    result = sandbox.run(code, timeout=60.0, memory_mb=2048)
    assert result.ok, f"{result.reason} {result.exception}"
    assert (
        result.stdout.strip().splitlines()[-1] == "['aten.permute.default', 'aten.addmm.default']"
    )
