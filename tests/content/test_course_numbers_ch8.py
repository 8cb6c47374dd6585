"""The facts COURSE.md lists for chapter 8, checked twice: each appears in the recorded output of
a lesson snippet, and comes out of that same snippet again when real gloo ranks run it now in the
sandbox. The drill that teaches the all_reduce number gives it from real ranks too."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.lessons import load_lesson

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "lessons" / "08-distributed.md"

# (what COURSE.md says, the text torch prints for it in the lesson)
FACTS: list[tuple[str, str]] = [
    ("ranks and world size", "process 3: rank 3 of 4, backend gloo"),
    ("4 ranks holding 1, 2, 3, 4 all end with 10", "all_reduce      r0:[10.0]  r1:[10.0]  r2:[10.0]  r3:[10.0]"),
    ("all_gather", "r3:[1.0, 2.0, 3.0, 4.0]"),
    ("broadcast", "broadcast       r0:[1.0]  r1:[1.0]  r2:[1.0]  r3:[1.0]"),
    ("reduce_scatter", "reduce_scatter  r0:[10.0]  r1:[20.0]  r2:[30.0]  r3:[40.0]"),
    ("torchrun's RANK and WORLD_SIZE", "RANK=1 -> dist.get_rank() = 1, world size 2"),
    ("a skipped collective times out", "timed out: True"),
    ("DDP's gradient all-reduce averages", "local grad [[4.0, 4.0, 4.0]]  after DDP [[3.0, 3.0, 3.0]]"),
    ("DDP's buckets", "gradient bucket size: 26,214,400 bytes = 25 MiB"),
    ("DeviceMesh and Shard(0)", "rank 1: Shard(0) global [4, 2], local [[4.0, 5.0], [6.0, 7.0]]"),
    ("FSDP shards the parameters", "global [4, 8], local [2, 8], placements (Shard(dim=0),)"),
    ("async_op returns a work handle", "rank 1: got a Work; after wait() completed=True, t=[6.0]"),
    ("barrier: the early ranks wait for the late one", "rank 0: waited for the late rank: True"),
    ("ring all-reduce sends 2(N-1)/N of the tensor", "numbers sent per rank [18, 18, 18, 18], 2(N-1)/N = 1.50; same as all_reduce: True"),
    ("ring all-reduce on 2 ranks", "numbers sent per rank [12, 12], 2(N-1)/N = 1.00"),
    ("DDP's first backward: one bucket at the end", "  all_reduce bucket 0: ['0.weight', '0.bias', '1.weight', '1.bias', '2.weight', '2.bias', '3.weight', '3.bias']\nbackward 2:"),
    ("later backwards: a bucket's all-reduce starts mid-backward", "  all_reduce bucket 0: ['3.bias', '3.weight']\ngrad of 2.bias"),
    ("no_sync: one all-reduce, the same gradient", "4 all-reduces, grad 30.0;  no_sync on 3 of 4: 1 all-reduce, grad 30.0"),
    ("a 2-D mesh's groups", "rank 1 at [0, 1]: dp group [1, 3], tp group [0, 1], sum over tp 1.0"),
    ("a 2-D mesh's blocks", "tp group [2, 3], sum over tp 5.0, block [[10.0, 11.0], [14.0, 15.0]]"),
]  # fmt: skip


@pytest.fixture(scope="module")
def lesson():
    return load_lesson(LESSON)


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_course_fact_recorded_and_reproduced(course, fact, needle):
    course.check_fact(LESSON, fact, needle)


def test_the_all_reduce_drill_gives_ten_on_every_rank(course):
    drill = course.drill("08-ranks.yaml", "all-reduce-value")
    for k in (0, 1):
        params = {"values": "[1, 2, 3, 4]", "k": k}
        assert course.truth(drill, params, timeout=30.0) == "[10.0]"


def test_the_ring_drill_sends_two_n_minus_one_over_n(course):
    drill = course.drill("08-ranks.yaml", "ring-elements-sent")
    assert course.truth(drill, {"world": 4, "n": 12}, timeout=60.0) == "18"
    assert course.truth(drill, {"world": 3, "n": 60}, timeout=60.0) == "80"


def test_no_sync_leaves_one_all_reduce(course):
    drill = course.drill("08-ranks.yaml", "no-sync-allreduces")
    assert course.truth(drill, {"k": 4, "cond": "micro != last"}, timeout=60.0) == "1"
    assert course.truth(drill, {"k": 4, "cond": "True"}, timeout=60.0) == "0"


def test_ddp_buckets_one_at_first_then_by_size(course):
    drill = course.drill("08-ranks.yaml", "ddp-bucket-count")
    first = {"layers": 4, "width": 512, "cap": 1, "step": 1}
    assert course.truth(drill, first, timeout=60.0) == "1"
    assert course.truth(drill, dict(first, step=2), timeout=60.0) == "4"


def test_lesson_links_its_lab_and_names_its_reading(lesson):
    text = LESSON.read_text()
    assert "](lab:ranks?slow=2)" in text and "](lab:ranks?skip=1)" in text
    assert "### Assigned reading" in text and "### The JAX way" in text
    assert lesson.labs == ["ranks"] and lesson.torch
