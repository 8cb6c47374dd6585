"""The facts COURSE.md lists for chapter 9, checked twice: each appears in the recorded output of
a lesson snippet, and comes out of that same snippet again when real torch runs it now in the
sandbox. Timings are never compared; only what stays true from run to run (settings, counts,
comparisons with a wide margin)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.lesson_outputs import normalise
from tutor.content.lesson_text import parse_snippets
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
    (snippet,) = [s for s in parse_snippets(LESSON.read_text()) if s.runtime == "xla"]
    recorded = normalise(snippet.output)
    fresh_output = course.fresh(LESSON, snippet, xla_sandbox)
    for fact, needle in LAZY_FACTS:
        assert needle in recorded, f"lesson 9 does not record {needle!r} ({fact})"
        assert needle in fresh_output, f"torch_xla no longer prints {needle!r} ({fact})"
    assert "perf_counter" in snippet.code and "torch_xla.sync(wait=True)" in snippet.code
