"""Runtime side of the dispatch race: time a per-sample loop against one batched op on the same
data with ``torch.utils.benchmark.Timer``, check they agree, and count the ops each dispatched."""

from __future__ import annotations

import statistics
import time
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


class _Counting:
    """Counts the calls its mode's hook sees, and makes each one."""

    def __init__(self) -> None:
        super().__init__()  # the mode's own set-up, next in the method order
        self.count = 0

    def _call(self, func: Any, args: Any, kwargs: Any) -> Any:
        self.count += 1
        return func(*args, **(kwargs or {}))


class CallCounter(_Counting, TorchFunctionMode):
    """Counts calls from Python into torch."""

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return self._call(func, args, kwargs)


class OpCounter(_Counting, TorchDispatchMode):  # type: ignore[no-untyped-call]
    """Counts ATen operators reaching the dispatcher."""

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return self._call(func, args, kwargs)


def count_ops(code: str, env: dict[str, Any]) -> tuple[int, int]:
    """(python calls, aten ops) for one run of ``code``."""
    with CallCounter() as calls, OpCounter() as ops:
        exec(code, env)
    return calls.count, ops.count


def measure(
    code: str, env: dict[str, Any], blocks: int, block_s: float
) -> tuple[Side, torch.Tensor]:
    """Warm up, then time ``code`` in ``blocks`` blocks of equal run counts; count its ops."""
    exec(code, env)  # warm-up, outside the timed region
    started = time.perf_counter()
    exec(code, env)  # one warm run sizes the blocks
    once = time.perf_counter() - started
    out = env["out"]
    number = max(1, int(block_s / max(once, 1e-9)))
    timer = benchmark.Timer(stmt=code, globals=env, num_threads=THREADS)
    per_run = sorted(timer.timeit(number).median for _ in range(blocks))
    q1, median, q3 = statistics.quantiles(per_run, n=4) if blocks > 1 else per_run * 3
    calls, ops = count_ops(code, env)
    side = Side(
        code=code,
        median_s=statistics.median(per_run),
        iqr_s=q3 - q1,
        measurements=blocks,
        runs_per_measurement=number,
        python_calls=calls,
        aten_ops=ops,
    )
    return side, out


def race(
    op: str = "linear", n: int = 256, dim: int = 64, blocks: int = 7, block_s: float = 0.02
) -> Race:
    """Race the per-sample loop of ``op`` against its batched form on ``n`` samples: each side
    is warmed up, then timed in ``blocks`` blocks of about ``block_s`` seconds (median, IQR)."""
    if op not in OPS:
        raise RaceInputError(f"unknown op {op!r}; choose one of {', '.join(OPS)}")
    if not 1 <= n <= MAX_N:
        raise RaceInputError(f"N must be between 1 and {MAX_N}, not {n}")
    if not 1 <= blocks <= 50 or not 0 < block_s <= 1:
        raise RaceInputError("blocks must be 1-50 and block_s in (0, 1]")
    if not 1 <= dim <= 1024:
        raise RaceInputError(f"dim must be between 1 and 1024, not {dim}")
    spec = OPS[op]
    torch.manual_seed(0)
    env: dict[str, Any] = {"torch": torch, "nn": torch.nn, "n": n, "dim": dim}
    threads = torch.get_num_threads()
    torch.set_num_threads(THREADS)  # sizing, warm-up and timing all on the same threads
    try:
        with torch.no_grad():
            exec(spec.setup, env)
            loop, loop_out = measure(spec.loop, env, blocks, block_s)
            batched, batched_out = measure(spec.batched, env, blocks, block_s)
    finally:
        torch.set_num_threads(threads)
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
