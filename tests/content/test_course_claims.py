"""Claims a reader of the course could be told wrongly, each held to torch twice.

Every fact below is run again now in the sandbox (through the course helper: the snippet that
shows it must print it again), and the lesson's prose must state it, not the wrong version a
first draft of the course gave (expanded-tensor writes, the sandbox's C compiler, `make_fx`'s
tracing mode, distributed timeouts, DDP's average, `reduce_scatter_single`, bf16 under autocast,
TPU claims left unlabelled, a clock started on undrained work).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

from tutor.content.loader import load_pack

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

ROOT = Path(__file__).resolve().parents[2]
LESSONS = {
    1: ROOT / "lessons" / "01-tensors.md",
    6: ROOT / "lessons" / "06-guarded-capture.md",
    7: ROOT / "lessons" / "07-graphs.md",
    8: ROOT / "lessons" / "08-distributed.md",
    10: ROOT / "lessons" / "10-bridges.md",
    11: ROOT / "lessons" / "11-tpu-practice.md",
    12: ROOT / "lessons" / "12-training-run.md",
}


def prose(chapter: int) -> str:
    """The lesson's text outside its code blocks, with its line breaks made spaces."""
    text = re.sub(r"```.*?```", " ", LESSONS[chapter].read_text(encoding="utf-8"), flags=re.S)
    return " ".join(text.split())


# (chapter, the fact, the text torch prints for it in the lesson)
FACTS: list[tuple[int, str, str]] = [
    (1, "copy_ into an expanded tensor is refused", "e.copy_(zeros)  refused: unsupported"),
    (1, "a slice write across a stride-0 dim is refused", "e[:, 0] = 5     refused: unsupported"),
    (1, "a write to one row reaches every alias", "after e[1] = [7, 8, 9], base = [7, 8, 9]"),
    (1, "fill_ goes through", "after fill_(0),  base = [0, 0, 0]"),
    (6, "inductor compiles C++ in the sandbox", "inductor's result equals eager's: True"),
    (6, "one fused C++ kernel", "kernels: ['cpp_fused_cos_mul_sin_sum_0']"),
    (7, "make_fx traces real tensors by default", "make_fx's default tracing_mode: real"),
    (7, "real mode calls f with a real tensor", "tracing_mode='real': f was called with a Tensor"),
    (
        7,
        "fake mode calls f with a FakeTensor",
        "tracing_mode='fake': f was called with a FakeTensor",
    ),
    (8, "gloo's default timeout is 30 minutes", "gloo's default timeout: 0:30:00"),
    (8, "DDP's 3 is not the mean loss's gradient", "mean over all 4 samples           grad [[1.5,"),
    (
        8,
        "DDP's 3 is the summed loss over the ranks",
        "sum over all 4 samples / 2 ranks  grad [[3.0,",
    ),
    (
        8,
        "reduce_scatter_tensor is the deprecated alias in 2.13",
        "`torch.distributed.reduce_scatter_tensor` is deprecated. Please use "
        "`torch.distributed.reduce_scatter_single` instead.",
    ),
]

# the facts only the xla runtime (torch 2.9.0, a CUDA build) can print
XLA_FACTS: list[tuple[int, str, str]] = [
    (8, "NCCL's default timeout is 10 minutes", "NCCL's default timeout: 0:10:00"),
    (8, "torch 2.9.0 has no reduce_scatter_single", "reduce_scatter_single: False"),
    (11, "a bf16 sum stays bf16 under autocast", "p.sum()           torch.bfloat16"),
    (11, "a bf16 addition stays bf16 under autocast", "p + p             torch.bfloat16"),
    (11, "softmax is on the float32 list", "p.softmax(dim=0)  torch.float32"),
]


@pytest.mark.parametrize(("chapter", "fact", "needle"), FACTS, ids=[f[1] for f in FACTS])
def test_fact_recorded_and_reproduced(course, chapter, fact, needle):
    course.check_fact(LESSONS[chapter], fact, needle)


@pytest.mark.parametrize(("chapter", "fact", "needle"), XLA_FACTS, ids=[f[1] for f in XLA_FACTS])
def test_xla_fact_recorded_and_reproduced(course, xla_sandbox, chapter, fact, needle):
    course.check_fact(LESSONS[chapter], fact, needle, xla_sandbox)


# (chapter, what the prose must say, the wrong version it must no longer say)
STATED: list[tuple[int, str, str]] = [
    (1, "Only `fill_` and `zero_` are let through", "but an op that only writes succeeds, and so"),
    (6, "The sandbox does have a C++ compiler", "has no C compiler"),
    (
        7,
        'By default (`tracing_mode="real"`) it runs your function on the real tensors',
        "with fake tensors, so what it records",
    ),
    (
        8,
        "30 minutes for gloo (and every backend but NCCL), 10 minutes for NCCL",
        "default of ten minutes",
    ),
    (8, "the sum over all samples divided by the world size", "together with a mean loss."),
    (8, "which 2.13 keeps as a deprecated alias", "reduce_scatter_tensor is the name"),
    (
        11,
        "A sum or a mean of bf16 values stays bf16 under autocast",
        "additions and reductions, where precision matters more and speed less, stay in float32",
    ),
    (
        11,
        "any other op, a sum or an addition, keeps its inputs' dtype",
        "keeps reductions in float32",
    ),
    (
        12,
        "before starting the clock, so no queued work is timed",
        "`torch_xla.sync(wait=True)` before reading the clock), keep",
    ),
]


@pytest.mark.parametrize(("chapter", "right", "wrong"), STATED, ids=[s[1][:40] for s in STATED])
def test_lesson_states_the_fact(chapter, right, wrong):
    text = prose(chapter)
    assert right in text, f"chapter {chapter} no longer says {right!r}"
    assert wrong not in text, f"chapter {chapter} says {wrong!r} again"


LABEL = re.compile(r"claim|not measured|not checked|not run|unverified")
#: what happens on a TPU, said of it (not the chapter's thesis, not "measured on a TPU")
ON_TPU = re.compile(r"(?<!measured )\bon a TPU\b(?! VM| directly)|\bTPU pod\b", re.I)


def sentences(chapter: int) -> list[str]:
    """The prose's sentences, list items and paragraphs split apart."""
    text = re.sub(r"```.*?```", "\n\n", LESSONS[chapter].read_text(encoding="utf-8"), flags=re.S)
    blocks = re.split(r"\n\s*\n|\n\s*- ", text)
    return [
        s
        for block in blocks
        for s in re.split(r"(?<=[.;!?])\s+(?=[A-Z(`*])", " ".join(block.split()))
    ]


@pytest.mark.parametrize("chapter", [10, 11, 12])
def test_what_happens_on_a_tpu_is_labelled(chapter):
    """Every sentence saying what happens on a TPU (this course never ran on one) says it is a
    claim, not a result."""
    on_tpu = [s for s in sentences(chapter) if ON_TPU.search(s)]
    assert on_tpu, "no sentence speaks of a TPU any more: the rule checks nothing"
    unlabelled = [s for s in on_tpu if not LABEL.search(s)]
    assert not unlabelled, f"TPU claims without a label: {unlabelled}"


def test_chapter_eight_pack_needs_a_torch_with_reduce_scatter_single():
    pack = load_pack(ROOT / "drills" / "08-ranks.yaml")
    wanted = SpecifierSet(pack.torch)
    assert "2.13.0" in wanted
    assert "2.9.0" not in wanted, "torch 2.9.0 has no reduce_scatter_single (see the xla fact)"


def test_autocast_drill_says_what_autocast_does(course, xla_sandbox):
    drill = course.drill("11-tpu-practice.yaml", "autocast-dtype")
    assert "keeps reductions" not in drill.explain
    assert "float32 list" in drill.explain
    limits = {"timeout": 180.0, "memory_mb": 4096, "profile": "compile"}
    truth = course.truth(drill, {"expr": "(a @ a).sum()"}, sandbox=xla_sandbox, **limits)
    assert truth == "torch.bfloat16"


def test_epoch_timing_drains_the_warm_up_before_the_clock_starts():
    drill = next(
        d
        for d in load_pack(ROOT / "drills" / "12-training-run.yaml").drills
        if d.id == "honest-epoch-timing"
    )
    lines = [line.split("#")[0].strip() for line in drill.lines]
    warm_up, start = lines.index("train_one_epoch()"), lines.index("began = time.perf_counter()")
    stop = next(i for i, line in enumerate(lines) if line.startswith("seconds ="))
    synced = [i for i, line in enumerate(lines) if line == "torch_xla.sync(wait=True)"]
    assert any(warm_up < i < start for i in synced), "the clock starts on undrained work"
    assert any(start < i < stop for i in synced), "the clock stops before the work is done"
