"""The race probe, run in-process with real torch: both sides give the same tensor, the op
counts show the trips through the interpreter, and bad options are refused. Never timing values."""

from __future__ import annotations

import pytest

from labs.harness import kept
from tutor.probes.data_race import OPS
from tutor.probes.race import RaceInputError, race

#: recording file -> the probe's arguments; timings differ per run, the rest must not
RECORDINGS = {
    "race_linear.json": {"op": "linear", "n": 256},
    "race_normalize.json": {"op": "normalize", "n": 1000},
}
TIMING_KEYS = ("median_s", "iqr_s", "measurements", "runs_per_measurement")


@pytest.mark.parametrize("op", sorted(OPS))
def test_each_race_matches_and_counts_trips(op):
    r = race(op, n=32, blocks=3, block_s=0.002)
    assert r.match and r.max_abs_diff < 1e-5
    assert r.shape[0] == 32 and r.loop.code == OPS[op].loop and r.batched.code == OPS[op].batched
    # the loop calls into torch at least once per sample; the batched op a constant few times
    assert r.loop.python_calls >= 32 and r.batched.python_calls <= 3
    assert r.loop.aten_ops >= 32 and r.batched.aten_ops <= 3
    assert r.loop.measurements >= 1 and r.batched.measurements >= 1
    assert r.loop.median_s > 0 and r.batched.median_s > 0 and r.ratio > 0


def test_trips_grow_with_n_in_the_loop_only():
    small, big = (
        race("linear", n=8, blocks=3, block_s=0.002),
        race("linear", n=64, blocks=3, block_s=0.002),
    )
    assert big.loop.python_calls - small.loop.python_calls == 2 * (64 - 8)  # x[i] and lin(x[i])
    assert big.batched.python_calls == small.batched.python_calls
    assert big.batched.aten_ops == small.batched.aten_ops


@pytest.mark.parametrize(
    "kwargs, says",
    [({"op": "nope"}, "unknown op"), ({"n": 0}, "between 1 and"), ({"n": 10**9}, "between 1 and")],
)
def test_bad_options_are_refused(kwargs, says):
    with pytest.raises(RaceInputError, match=says):
        race(**kwargs)


def deterministic(data: dict) -> dict:
    """The recording without its timings."""
    out = {k: v for k, v in data.items() if k not in ("ratio", "max_abs_diff")}
    for side in ("loop", "batched"):
        out[side] = {k: v for k, v in data[side].items() if k not in TIMING_KEYS}
    return out


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_recordings_match_the_probe(name):
    """The widget snapshots draw these files; all but the timings must still be current."""
    current = race(**RECORDINGS[name]).model_dump(mode="json")
    assert deterministic(kept(name, current)) == deterministic(current)
