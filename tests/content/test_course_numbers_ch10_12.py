"""The numbers COURSE.md gives for chapter 12 (the training run), checked twice.

Each number must (1) appear in the recorded output of a lesson snippet, and (2) come out of that
same snippet again when real torch runs it now in the sandbox. Drills that teach a number are run
with the params that reproduce the course's example. Nothing here types an output torch did not
print.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tutor.content.lessons import load_lesson
from tutor.content.models import PredictDrill

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

ROOT = Path(__file__).resolve().parents[2]
LESSONS = {12: ROOT / "lessons" / "12-training-run.md"}
DRILLS = ROOT / "drills"

# (chapter, what COURSE.md says, the text torch prints for it in the lesson)
FACTS: list[tuple[int, str, str]] = [
    (12, "1,797 digits of 8x8 = 64 pixels", "images (1797, 64) torch.float32"),
    (12, "pixels are counts 0..16", "pixel values from 0 to 16"),
    (12, "10 classes", "images per class: [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]"),
    (12, "the fixed split keeps 360 images for testing", "train 1437  test 360"),
    (
        12,
        "45 steps an epoch at batch 32, the last of 29",
        "steps per epoch: 45  batch sizes: 32 ... 29",
    ),
    (12, "the MLP has 4,810 parameters", "parameters: 4810"),
    (12, "an MLP passes 90% test accuracy within 3 CPU epochs", "epoch 3: train loss"),
    (12, "ExponentialLR(0.7): epoch 3 trains with 0.0245", "epoch 3 trains with lr 0.02450"),
    (12, "scheduler after optimizer, or torch warns", "Detected call of `lr_scheduler.step()`"),
    (
        12,
        "a full checkpoint resumes bit for bit",
        "loader RNG restored: True   bit-identical: True",
    ),
    (
        12,
        "without the loader's RNG it does not",
        "loader RNG restored: False  bit-identical: False",
    ),
]


@pytest.mark.parametrize(("chapter", "fact", "needle"), FACTS, ids=[f[1] for f in FACTS])
def test_course_number_recorded_and_reproduced(course, chapter, fact, needle):
    course.check_fact(LESSONS[chapter], fact, needle)


def test_three_epochs_pass_ninety_percent(course):
    out = course.fresh(LESSONS[12], course.snippet(LESSONS[12], "epoch 3: train loss"))
    accuracy = float(re.search(r"epoch 3: .*test accuracy ([\d.]+)%", out).group(1))
    assert accuracy >= 90.0, out


def test_lesson_links_the_train_lab():
    lesson = load_lesson(LESSONS[12])
    assert lesson.labs == ["train"]
    assert "](lab:train?epochs=3)" in LESSONS[12].read_text()
    assert all(s.output is not None for s in lesson.snippets)


PREDICT_CASES = [
    ("12-training-run.yaml", "steps-per-epoch", {"n": 1437, "b": 32, "drop": False}, "45"),
    ("12-training-run.yaml", "last-batch-size", {"n": 1437, "b": 32}, "29"),
    ("12-training-run.yaml", "mlp-parameters", {"h": 64}, "4810"),
    ("12-training-run.yaml", "exponential-lr", {"lr": 0.05, "g": 0.7, "k": 3}, "0.0245"),
]


@pytest.mark.parametrize(("pack", "drill_id", "params", "want"), PREDICT_CASES)
def test_drill_truth_is_the_course_number(course, pack, drill_id, params, want):
    drill = course.drill(pack, drill_id)
    assert isinstance(drill, PredictDrill)
    got = course.truth(drill, params, timeout=20.0)
    assert float(got) == pytest.approx(float(want), rel=1e-9), f"{drill_id}: torch says {got}"
