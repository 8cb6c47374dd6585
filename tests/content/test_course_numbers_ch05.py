"""The facts COURSE.md lists for chapter 5, checked twice.

Each fact must (1) appear in the recorded output of a lesson snippet, and (2) come out of that
same snippet again when real torch runs it now in the sandbox. The drills that teach the batching
arithmetic are checked the same way: their setup and ask run in the sandbox with the course's
numbers, and the count a real DataLoader produces is the course's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.commands.lesson_run import run_snippet
from tutor.content.lesson_outputs import normalise
from tutor.content.lessons import load_lesson
from tutor.content.loader import load_pack
from tutor.content.models import ChoiceParam, IntParam
from tutor.grading.variants import render
from tutor.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "lessons" / "05-input-pipeline.md"
PACK = ROOT / "drills" / "05-loader.yaml"

# (what COURSE.md says, the text torch prints for it in the lesson)
FACTS: list[tuple[str, str]] = [
    (
        "a Dataset is __len__ + __getitem__, batched by collate",
        "batch x: (4, 2)  batch y: [0, 1, 4, 9]",
    ),
    ("60,000 at 64: 938 batches, the last holding 32", "938 batches, last holds 32"),
    ("60,000 at 64: 10 epochs = 9,380 steps", "10 epochs = 9,380 steps"),
    ("10,000 at 256: 40 batches, the last holding 16", "40 batches, last holds 16"),
    ("drop_last drops the partial batch", "drop_last=True : 937 batches"),
    ("the default collate stacks", "stack expects each tensor to be equal size"),
    ("a collate_fn pads per batch", "[[1, 2, 0, 0], [1, 2, 3, 4]] [2, 4]"),
    (
        "workers are processes: batches dealt round robin",
        "num_workers=2: [[0, 0], [1, 1], [0, 0], [1, 1]]",
    ),
    (
        "workers hold copies: a copied generator repeats",
        "num_workers=2: [0.4963, 0.4963, 0.7682, 0.7682]",
    ),
    ("an unsharded IterableDataset yields twice", "shard=False: [0, 0, 1, 1, 2, 2"),
    ("sharding by get_worker_info", "shard=True : [0, 1, 2, 3, 4, 5]"),
    ("workers buy speed on I/O-bound loading", "slow reads: 2 workers faster than none: True"),
    ("workers cost on tiny in-memory data", "in memory:  2 workers faster than none: False"),
    ("an end-to-end run on the shipped digits", "train 1437 test 360 steps per epoch 23"),
    ("with accuracy", "test accuracy above 90%: True"),
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
    assert hits, f"no recorded output of lesson 5 shows {needle!r}"
    return hits[0]


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_course_fact_recorded_and_reproduced(fresh, fact, needle):
    index, code = _recorded_snippet(needle)
    assert needle in fresh(index, code), f"torch no longer prints {needle!r} ({fact})"


def test_lesson_records_the_torch_version():
    lesson = load_lesson(LESSON)
    assert lesson.torch
    assert all(s.output is not None for s in lesson.snippets), "unrecorded snippet"


# (drill, params that reproduce the course's example, the truth torch computes)
DRILL_CASES = [
    ("batch-count", {"n": 60000, "b": 64, "drop": False}, "938"),
    ("batch-count", {"n": 10000, "b": 256, "drop": False}, "40"),
    ("last-batch-size", {"n": 60000, "b": 64}, "32"),
    ("last-batch-size", {"n": 10000, "b": 256}, "16"),
    ("steps-for-epochs", {"n": 60000, "b": 64, "epochs": 10, "drop": False}, "9380"),
]


@pytest.mark.parametrize(("drill_id", "params", "truth"), DRILL_CASES)
def test_drill_truth_matches_the_course(sandbox, drill_id, params, truth):
    drill = next(d for d in load_pack(PACK).drills if d.id == drill_id)
    for name, value in params.items():  # params a learner can draw
        spec = drill.params[name]
        if isinstance(spec, IntParam):
            assert spec.int_[0] <= value <= spec.int_[1], (name, value)
        else:
            assert isinstance(spec, ChoiceParam) and value in spec.choice, (name, value)
    code = render(drill.setup, params) + f"\nprint(repr({drill.ask.strip()}))\n"
    result = sandbox.run(code, timeout=60.0, memory_mb=2048)
    assert result.ok, f"{result.reason} {result.exception}"
    assert result.stdout.strip().splitlines()[-1] == truth
