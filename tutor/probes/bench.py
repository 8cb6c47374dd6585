"""Runtime side of the benchmark lab: run the learner's code, then time its ``fn`` three ways
(the first call, a naive ``time.time()`` pair, ``torch.utils.benchmark.Timer``) and profile it."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from typing import Any, cast

import torch
import torch.utils.benchmark as benchmark
from torch.profiler import ProfilerActivity, profile

from tutor.probes.data_bench import MAX_THREADS, TOP_OPS, Bench, ProfiledOp, TimerStats

#: extra naive one-shot readings taken after the first one
NAIVE_SAMPLES = 5
#: at most this many calls run under the profiler
PROFILE_CALLS = 10


class BenchInputError(ValueError):
    """The code cannot be benchmarked; the message says why in plain words."""


def learner_fn(code: str) -> Callable[[], Any]:
    """Run ``code`` in fresh globals (``torch``, ``nn``, ``F``) and return the ``fn`` it defines."""
    env: dict[str, Any] = {
        "__name__": "__bench__",
        "torch": torch,
        "nn": torch.nn,
        "F": torch.nn.functional,
    }
    exec(compile(code, "<bench>", "exec"), env)
    fn = env.get("fn")
    if fn is None:
        raise BenchInputError("the code must define fn, a function that takes no arguments")
    if not callable(fn):
        raise BenchInputError(f"fn must be a function, not {type(fn).__name__}")
    try:
        inspect.signature(fn).bind()
    except TypeError as err:
        raise BenchInputError(f"fn must be callable with no arguments ({err})") from None
    except ValueError:  # builtins without a signature: let the call itself decide
        pass
    return cast("Callable[[], Any]", fn)


def naive_ms(fn: Callable[[], Any]) -> float:
    """The way timings are usually taken: two readings of the wall clock around one call."""
    start = time.time()
    fn()
    return (time.time() - start) * 1e3


def top_ops(fn: Callable[[], Any], calls: int) -> list[ProfiledOp]:
    """The profiler's table for ``calls`` calls of ``fn``, most self CPU time first."""
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(calls):
            fn()
    rows = sorted(prof.key_averages(), key=lambda e: e.self_cpu_time_total, reverse=True)
    return [
        ProfiledOp(op=e.key, self_ms=e.self_cpu_time_total / 1e3, calls=e.count)
        for e in rows[:TOP_OPS]
    ]


def bench(code: str, threads: int = 1, min_run_time: float = 0.2) -> Bench:
    """Benchmark the ``fn`` that ``code`` defines: its first call, naive one-shot readings,
    ``Timer.blocked_autorange`` on ``threads`` threads, and the profiler's top ops."""
    if not 1 <= threads <= MAX_THREADS:
        raise BenchInputError(f"threads must be between 1 and {MAX_THREADS}, not {threads}")
    if not 0 < min_run_time <= 5:
        raise BenchInputError("min_run_time must be in (0, 5] seconds")
    fn = learner_fn(code)
    default_threads = torch.get_num_threads()
    started = time.perf_counter()
    fn()
    first_ms = (time.perf_counter() - started) * 1e3
    naive = [naive_ms(fn) for _ in range(1 + NAIVE_SAMPLES)]
    timer = benchmark.Timer(stmt="fn()", globals={"fn": fn}, num_threads=threads)
    m = timer.blocked_autorange(min_run_time=min_run_time)
    torch.set_num_threads(default_threads)
    calls = max(1, min(PROFILE_CALLS, m.number_per_run))
    stats = TimerStats(
        median_ms=m.median * 1e3,
        iqr_ms=m.iqr * 1e3,
        runs=len(m.times),
        threads=m.task_spec.num_threads,
        number_per_run=m.number_per_run,
        total_calls=len(m.times) * m.number_per_run,
    )
    return Bench(
        naive_ms=naive[0],
        first_call_ms=first_ms,
        timer=stats,
        profile=top_ops(fn, calls),
        naive_samples_ms=naive[1:],
        profiled_calls=calls,
        clock_resolution_ms=time.get_clock_info("time").resolution * 1e3,
        default_threads=default_threads,
        torch_version=torch.__version__,
    )
