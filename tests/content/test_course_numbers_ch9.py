"""The facts COURSE.md lists for chapter 9, checked twice: each appears in the recorded output of
a lesson snippet, and comes out of that same snippet again when real torch runs it now in the
sandbox. Timings are never compared; only what stays true from run to run (settings, counts,
comparisons with a wide margin)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.lesson_outputs import normalise
from tutor.content.lessons import load_lesson

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

LESSON = Path(__file__).resolve().parents[2] / "lessons" / "09-performance.md"

# (what COURSE.md says, the text torch prints for it in the lesson)
FACTS: list[tuple[str, str]] = [
    ("Timer pins threads to 1 by default", "threads Timer pinned by default: 1"),
    ("the statement runs on the pinned threads", "threads the statement saw: [1]"),
    ("num_threads pins another count", "with num_threads=3 it saw: [3]"),
    ("Timer warms up before timing", "calls made by timeit(100): 102"),
    ("median and IQR of the blocks", "median: 0.11"),
    ("the IQR of the blocks", "IQR:    0.02"),
    ("a noisy block drags the mean", "mean:   0.266"),
    ("blocked_autorange runs at least min_run_time", "at least min_run_time: True"),
    ("blocked_autorange pins one thread", "threads: 1"),
    ("compilation lands in the first call", "first call more than 10x the warm median: True"),
    ("a mean including it lies", "mean of all 21 calls more than 5x the warm median: True"),
    ("the profiler counts the ops", "aten::addmm   9 calls"),
    ("the per-sample loop dispatches once per sample", "aten::linear   loop 64  batched 1"),
    ("Compare lays measurements out: rows and columns", "      loop     |  100.0  |  1600.0"),
    ("Compare picks one unit", "Times are in microseconds (us)."),
    ("a schedule records only the active steps", "['ProfilerStep#2', 'ProfilerStep#3']"),
    ("on_trace_ready exports one trace per window", "trace files: ['step4.json']"),
    ("record_function labels land in the trace", "{'forward': 2, 'backward': 2, 'optimizer': 2}"),
    ("the tape holds activations after the forward", "with the tape: 2.0 MiB still held"),
    ("no_grad holds none", "under no_grad: 0.0 MiB"),
    ("a Linear costs 2 x batch x in x out", "forward = 2 x batch x weights: True"),
    ("backward is twice the forward", "backward (mm)  4,194,304"),
    (
        "but once where no input gradient is needed",
        "forward (addmm) 12,845,056   backward (mm) 12,845,056",
    ),
    ("a training step is not always 3x", "one training step: 32,227,328 FLOPs, 2.15 x the forward"),
    ("MFU arithmetic", "MFU: 6.4%"),
    ("Amdahl bounds the win", "90% of the step made   10x faster: the step is 5.26x faster"),
    ("the loop dispatches 21 ops a sample", "looped           aten ops  5376"),
    (
        "inference_mode saves nothing for backward",
        "batched_no_tape  aten ops    17   saved for backward: 0",
    ),
    ("batching wins by a wide margin", "looped more than 10x slower than batched: True"),
    ("every operator allocates its result", "a * 2 + 1                        2 buffers, 8 MiB"),
    ("out= and in-place allocate nothing", "torch.mul(a, 2, out=out).add_(1) 0 buffers, 0 MiB"),
]


@pytest.fixture(scope="module")
def lesson():
    return load_lesson(LESSON)


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_course_fact_recorded_and_reproduced(course, fact, needle):
    course.check_fact(LESSON, fact, needle)


def test_lesson_links_its_labs_and_names_its_reading(lesson):
    text = LESSON.read_text()
    assert "](lab:bench)" in text and "](lab:race)" in text
    assert "### Assigned reading" in text and "### The JAX way" in text
    assert lesson.labs == ["bench", "race"] and lesson.torch


# (what COURSE.md says about the asynchronous clock, what torch_xla prints for it)
LAZY_FACTS: list[tuple[str, str]] = [
    ("a lazy tensor records the ops", "matmuls recorded: 2"),
    ("nothing ran when the naive clock stopped", "graphs run when the naive clock stopped: 0"),
    ("sync runs the graph", "graphs run after torch_xla.sync(wait=True): 1"),
    ("an unsynced value waits", "graphs run before s.item(): 1"),
    ("the first line needing a value pays", "graphs run after s.item(): 2"),
]


def test_the_asynchronous_clock_is_shown_with_lazy_tensors(course, xla_sandbox):
    """Lie 1 runs on the xla runtime: the recorded counts come out of torch_xla 2.9 again."""
    snippet = course.snippet(LESSON, code="naive = time.perf_counter() - start")
    assert snippet.runtime == "xla"
    recorded = normalise(snippet.output)
    fresh_output = course.fresh(LESSON, snippet, xla_sandbox)
    for fact, needle in LAZY_FACTS:
        assert needle in recorded, f"lesson 9 does not record {needle!r} ({fact})"
        assert needle in fresh_output, f"torch_xla no longer prints {needle!r} ({fact})"
    assert "perf_counter" in snippet.code and "torch_xla.sync(wait=True)" in snippet.code


# (what the lesson says about syncs nobody wrote, what torch_xla prints for it)
SYNC_FACTS: list[tuple[str, str]] = [
    ("every .item() is a host read", "loss.item() every step: 5 host reads"),
    ("one read after the loop", "one read after the loop: 1 host read"),
    ("the same number either way", "same mean loss: True"),
]


@pytest.mark.parametrize(("fact", "needle"), SYNC_FACTS, ids=[f[0] for f in SYNC_FACTS])
def test_hidden_syncs_are_counted_on_torch_xla(course, xla_sandbox, fact, needle):
    course.check_fact(LESSON, fact, needle, xla_sandbox)


def test_cuda_only_tools_are_labelled_as_not_run():
    """The sync debugger and the CUDA memory tools cannot run on this machine: the lesson says so
    where it names them."""
    text = LESSON.read_text()
    for tool in ("set_sync_debug_mode", "max_memory_allocated", "_record_memory_history"):
        at = text.index(tool)
        assert "not run here" in text[max(0, at - 400) : at + 400], tool
