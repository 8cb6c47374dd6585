"""The bench probe, run in-process with real torch: every clock reports, the timer pins the
threads asked for, the profiler counts the ops ``fn`` really ran, and bad code gets a plain
reason. Never timing values."""

from __future__ import annotations

import pytest
import torch

from labs.harness import kept
from tutor.probes.bench import NAIVE_SAMPLES, BenchInputError, bench
from tutor.probes.data_bench import DEFAULT_CODE, TOP_OPS

QUICK = 0.01  # seconds of blocked_autorange: enough for structure, not for a real benchmark

ADDS = "x = torch.ones(8)\n\ndef fn():\n    y = x\n    for _ in range({k}):\n        y = y + 1\n    return y\n"


def test_default_code_reports_every_clock():
    b = bench(DEFAULT_CODE, min_run_time=QUICK)
    assert b.first_call_ms > 0 and b.naive_ms >= 0
    assert len(b.naive_samples_ms) == NAIVE_SAMPLES
    assert b.timer.threads == 1 and b.timer.runs >= 1 and b.timer.number_per_run >= 1
    assert b.timer.median_ms > 0 and b.timer.iqr_ms >= 0
    assert b.timer.total_calls == b.timer.runs * b.timer.number_per_run
    ops = {p.op: p.calls for p in b.profile}
    assert ops["aten::mm"] == b.profiled_calls  # one matmul kernel per call of fn
    assert 1 <= len(b.profile) <= TOP_OPS
    selfs = [p.self_ms for p in b.profile]
    assert selfs == sorted(selfs, reverse=True)
    assert b.torch_version == torch.__version__


@pytest.mark.parametrize("k", [1, 5])
def test_profiler_counts_every_op_fn_runs(k):
    b = bench(ADDS.format(k=k), min_run_time=QUICK)
    ops = {p.op: p.calls for p in b.profile}
    assert ops["aten::add"] == k * b.profiled_calls


def test_threads_are_pinned_while_timing_and_restored_after():
    before = torch.get_num_threads()
    code = "seen = []\n\ndef fn():\n    seen.append(torch.get_num_threads())\n"
    b = bench(code, threads=2, min_run_time=QUICK)
    assert b.timer.threads == 2 and b.default_threads == before
    assert torch.get_num_threads() == before


@pytest.mark.parametrize(
    "code, says",
    [
        ("x = 1", "must define fn"),
        ("fn = 3", "must be a function, not int"),
        ("def fn(x):\n    return x", "no arguments"),
    ],
)
def test_code_without_a_usable_fn_is_refused(code, says):
    with pytest.raises(BenchInputError, match=says):
        bench(code, min_run_time=QUICK)


def test_bad_options_are_refused():
    with pytest.raises(BenchInputError, match="threads"):
        bench(DEFAULT_CODE, threads=0)
    with pytest.raises(BenchInputError, match="min_run_time"):
        bench(DEFAULT_CODE, min_run_time=0)


def test_errors_in_the_code_and_in_fn_surface():
    with pytest.raises(SyntaxError):
        bench("def fn(:", min_run_time=QUICK)
    with pytest.raises(ZeroDivisionError):
        bench("def fn():\n    return 1 / 0", min_run_time=QUICK)


def deterministic(data: dict) -> dict:
    """What does not depend on the clock: threads, the ops profiled, the version."""
    return {
        "threads": data["timer"]["threads"],
        "ops": sorted(p["op"] for p in data["profile"]),
        "naive_samples": len(data["naive_samples_ms"]),
        "torch_version": data["torch_version"],
    }


def test_recording_matches_the_probe():
    """The snapshot draws this file; all but the timings must still be current."""
    current = bench(DEFAULT_CODE, min_run_time=0.05).model_dump(mode="json")
    assert deterministic(kept("bench_matmul.json", current)) == deterministic(current)
