"""The benchmark lab's data: the learner's ``fn`` timed the naive way and the honest way, side by
side, with its first-call cost and the profiler's top ops (torch-free)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tutor.probes import lab_defaults as defaults

#: the snippet the lab starts with (a small matrix multiply)
DEFAULT_CODE = defaults.BENCH_CODE
#: how many threads the honest timer may be asked to pin
MAX_THREADS = defaults.BENCH_MAX_THREADS
#: rows of the profiler table
TOP_OPS = 8


def limits_for(code: str = "", **_: object) -> dict[str, str]:
    """The sandbox limits for timing ``code`` (the lab row's ``limits_for``): the ``compile``
    profile when it calls ``torch.compile`` (inductor writes and builds C++), else the row's."""
    return {"profile": "compile"} if "torch.compile" in code else {}


class TimerStats(BaseModel):
    """What ``torch.utils.benchmark.Timer.blocked_autorange`` measured."""

    median_ms: float
    """Median milliseconds per call over the blocks."""
    iqr_ms: float
    """Interquartile range of the per-call times, in milliseconds."""
    runs: int
    """How many blocks were timed (each block is ``number_per_run`` calls)."""
    threads: int
    """The threads torch was pinned to while timing."""
    number_per_run: int = 1
    """Calls per block: blocked_autorange picks it so one block outlasts the clock's noise."""
    total_calls: int = 0


class ProfiledOp(BaseModel):
    """One row of the profiler's table, sorted by self time."""

    op: str
    self_ms: float
    """Time spent in the op itself (not in the ops it called), summed over every call."""
    calls: int


class Bench(BaseModel):
    """The result of one benchmark of the learner's ``fn``."""

    naive_ms: float
    """One warm call between two ``time.time()`` readings: one sample, no statistics."""
    first_call_ms: float
    """The very first call (warm-up, lazy initialisation, compilation all land here)."""
    timer: TimerStats
    profile: list[ProfiledOp]
    """The profiler's top ops over ``profiled_calls`` calls, most self time first."""
    naive_samples_ms: list[float] = Field(default_factory=list)
    """A few more naive one-shot readings, to show how far one sample can wander."""
    profiled_calls: int = 0
    clock_resolution_ms: float = 0.0
    """The resolution ``time.get_clock_info("time")`` reports for the naive clock."""
    default_threads: int = 1
    """The threads torch would use if nobody pinned them (what the naive call ran with)."""
    torch_version: str = ""
