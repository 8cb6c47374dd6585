"""The facts COURSE.md lists for chapter 5, checked twice.

Each fact must (1) appear in the recorded output of a lesson snippet, and (2) come out of that
same snippet again when real torch runs it now in the sandbox. The drills that teach the batching
arithmetic are checked the same way: their setup and ask run in the sandbox with the course's
numbers, and the count a real DataLoader produces is the course's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "lessons" / "05-input-pipeline.md"
PACK = "05-loader.yaml"

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
    (
        "pin_memory without an accelerator pins nothing",
        "no accelerator is found, then device pinned memory won't be used",
    ),
    ("a pinned batch on this CPU", "batch pinned: False"),
    ("Linux's default start method is fork", "default start method: fork"),
    (
        "spawn without the __main__ guard fails",
        "no guard: exit status 1: An attempt has been made to start a new process",
    ),
    ("spawn with the guard works", "guarded : exit status 0: batches: [[0, 1], [4, 9]]"),
    (
        "reading Python objects copies them into each worker",
        "Python list: each worker gained at least 40 MiB: True",
    ),
    ("reading a tensor copies nothing", "tensor     : each worker gained at least 40 MiB: False"),
    (
        "DistributedSampler pads by repeating the first indices",
        "drop_last=False: [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]",
    ),
    ("DistributedSampler's drop_last drops the tail", "drop_last=True : [[0, 3, 6], [1, 4, 7]"),
    (
        "without set_epoch every epoch has the same order",
        "set_epoch called: False [[4, 7, 3, 0, 6], [4, 7, 3, 0, 6], [4, 7, 3, 0, 6]]",
    ),
    ("set_epoch reshuffles", "set_epoch called: True  [[4, 7, 3, 0, 6], [5, 1, 0, 9, 7]"),
    (
        "resuming from the epoch's generator state",
        "resumed: [[0, 60, 40], [80]] | the rest of epoch 1: True",
    ),
    ("skipping through the loader loads the skipped", "samples loaded to resume: 10"),
    ("batch_sampler alone draws another order", "| the same: False"),
    ("owning the order loads only the rest", "the rest of epoch 1: True | samples loaded: 4"),
    ("an end-to-end run on the shipped digits", "train 1437 test 360 steps per epoch 23"),
    ("with accuracy", "test accuracy above 90%: True"),
]


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_course_fact_recorded_and_reproduced(course, fact, needle):
    course.check_fact(LESSON, fact, needle)


def test_lesson_records_the_torch_version(course):
    course.check_recorded(LESSON)


# (drill, params that reproduce the course's example, the truth torch computes)
DRILL_CASES = [
    ("batch-count", {"n": 60000, "b": 64, "drop": False}, "938"),
    ("batch-count", {"n": 10000, "b": 256, "drop": False}, "40"),
    ("last-batch-size", {"n": 1437, "b": 64}, "29"),
    ("last-batch-size", {"n": 1000, "b": 100}, "100"),
    ("steps-for-epochs", {"n": 60000, "b": 64, "epochs": 10, "drop": False}, "9380"),
    ("shard-size", {"n": 10, "w": 3, "r": 1, "drop": False}, "4"),
    ("shard-size", {"n": 10, "w": 3, "r": 1, "drop": True}, "3"),
    ("padded-repeats", {"n": 10, "w": 3}, "2"),
    ("set-epoch-orders", {"epochs": 3, "line": "pass"}, "1"),
    ("set-epoch-orders", {"epochs": 3, "line": "sampler.set_epoch(epoch)"}, "3"),
    ("samples-loaded-to-resume", {"n": 20, "b": 3, "done": 2}, "20"),
]


@pytest.mark.parametrize(("drill_id", "params", "truth"), DRILL_CASES)
def test_drill_truth_matches_the_course(course, drill_id, params, truth):
    assert course.truth(course.drill(PACK, drill_id), params) == truth
