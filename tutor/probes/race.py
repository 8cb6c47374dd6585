"""Runtime side of the dispatch race: time a per-sample loop against one batched op on the same
data with ``torch.utils.benchmark.Timer``, check they agree, and count the ops each dispatched."""

from __future__ import annotations

from typing import Any

import torch
import torch.utils.benchmark as benchmark
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from tutor.probes.data_race import MAX_N, OPS, Race, Side

#: timed with one thread, as torch.utils.benchmark does by default (stable, comparable)
THREADS = 1


class RaceInputError(ValueError):
    """Options the race cannot run with; the message says why."""


class CallCounter(TorchFunctionMode):
    """Counts calls from Python into torch."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


class OpCounter(TorchDispatchMode):
    """Counts ATen operators reaching the dispatcher."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


def count_ops(code: str, env: dict[str, Any]) -> tuple[int, int]:
    """(python calls, aten ops) for one run of ``code``."""
    with CallCounter() as calls, OpCounter() as ops:
        exec(code, env)
    return calls.count, ops.count


def measure(code: str, env: dict[str, Any], min_run_time: float) -> tuple[Side, torch.Tensor]:
    """Warm up, time ``code``, count its ops; returns the side and its output."""
    exec(code, env)  # warm-up, outside the timed region
    out = env["out"]
    timer = benchmark.Timer(stmt=code, globals=env, num_threads=THREADS)
    m = timer.blocked_autorange(min_run_time=min_run_time)
    calls, ops = count_ops(code, env)
    side = Side(
        code=code,
        median_s=m.median,
        iqr_s=m.iqr,
        measurements=len(m.times),
        runs_per_measurement=m.number_per_run,
        python_calls=calls,
        aten_ops=ops,
    )
    return side, out


def race(op: str = "linear", n: int = 256, dim: int = 64, min_run_time: float = 0.2) -> Race:
    """Race the per-sample loop of ``op`` against its batched form on ``n`` samples."""
    if op not in OPS:
        raise RaceInputError(f"unknown op {op!r}; choose one of {', '.join(OPS)}")
    if not 1 <= n <= MAX_N:
        raise RaceInputError(f"N must be between 1 and {MAX_N}, not {n}")
    if not 1 <= dim <= 1024:
        raise RaceInputError(f"dim must be between 1 and 1024, not {dim}")
    spec = OPS[op]
    torch.manual_seed(0)
    env: dict[str, Any] = {"torch": torch, "nn": torch.nn, "n": n, "dim": dim}
    with torch.no_grad():
        exec(spec.setup, env)
        loop, loop_out = measure(spec.loop, env, min_run_time)
        batched, batched_out = measure(spec.batched, env, min_run_time)
    return Race(
        op=op,
        title=spec.title,
        n=n,
        dim=dim,
        setup=spec.setup,
        loop=loop,
        batched=batched,
        ratio=loop.median_s / batched.median_s,
        match=torch.allclose(loop_out, batched_out, rtol=1e-5, atol=1e-6),
        max_abs_diff=float((loop_out - batched_out).abs().max()),
        shape=list(batched_out.shape),
        threads=THREADS,
        torch_version=torch.__version__,
    )
