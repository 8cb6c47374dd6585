"""The ranks probe, run in-process with real torch: real gloo processes hold what each
collective's semantics say, a slow rank makes the others wait, a skipped call ends in the
group's timeout, and bad options are refused. Never timing values, only their order."""

from __future__ import annotations

import pytest

from labs.harness import kept
from tutor.probes.data_ranks import RanksInputError
from tutor.probes.ranks import ranks


@pytest.mark.parametrize(
    "op, world, values, after",
    [
        ("all_reduce", 4, [1, 2, 3, 4], [[10.0]] * 4),
        ("all_gather", 3, [5, 6, 7], [[5.0, 6.0, 7.0]] * 3),
        ("broadcast", 2, [5, 7], [[5.0], [5.0]]),
        ("reduce_scatter", 3, [1, 2, 3], [[6.0], [12.0], [18.0]]),
    ],
)
def test_each_collective_gives_every_rank_what_torch_says(op, world, values, after):
    data = ranks(world=world, op=op, values=values)
    assert data.after == after and data.errors == [None] * world
    if op == "reduce_scatter":  # rank r holds the row (v, 2v, 3v): column k sums to (k+1)*sum
        assert data.before[1] == [2.0, 4.0, 6.0]
    else:
        assert data.before == [[float(v)] for v in values]
    events = {(e.rank, e.event) for e in data.timeline}
    assert {(r, name) for r in range(world) for name in ("join", "work", op)} <= events
    assert all(e.end_ms >= e.start_ms >= 0 for e in data.timeline)
    assert data.last_to_arrive in range(world) and op in data.explanation


def test_the_slow_rank_arrives_last_and_the_others_wait_for_it():
    data = ranks(world=3, op="all_reduce", slow_rank=1, delay_ms=400)
    assert data.after == [[6.0]] * 3 and data.last_to_arrive == 1
    work = next(e for e in data.timeline if e.rank == 1 and e.event == "work")
    assert work.end_ms - work.start_ms >= 400  # the rank really slept that long
    inside = {e.rank: e for e in data.timeline if e.event == "all_reduce"}
    for r in (0, 2):  # they entered before rank 1 did and could not leave before it came
        assert inside[r].start_ms < inside[1].start_ms <= inside[r].end_ms
    assert "Rank 1 arrived last" in data.explanation


def test_a_rank_that_skips_the_collective_leaves_the_others_to_time_out():
    data = ranks(world=3, op="all_reduce", skip_rank=2, timeout_s=1.0)
    assert data.errors[2] is None and data.waited_ms[2] is None
    # every waiting rank fails; the first to give up times out and tears down its connections,
    # so its peer may read "connection closed" instead (which one depends on scheduling)
    assert all(data.errors[r] for r in (0, 1)), data.errors
    assert any("Timed out" in (data.errors[r] or "") for r in (0, 1)), data.errors
    assert {e.event for e in data.timeline if e.rank == 2} == {"join", "work", "skipped"}
    assert max(data.waited_ms[r] for r in (0, 1)) >= 1000  # the first waited the whole timeout
    assert data.after[2] == data.before[2] and data.last_to_arrive is None
    assert "never called all_reduce" in data.explanation and "1 s timeout" in data.explanation
    assert "Ranks 0, 1 waited inside it" in data.explanation


@pytest.mark.parametrize(
    "kwargs, says",
    [
        ({"op": "gather_all"}, "unknown collective"),
        ({"world": 5}, "2 to 4 ranks"),
        ({"world": 2, "values": [1, 2, 3]}, "one value per rank"),
        ({"world": 2, "slow_rank": 2}, "slow rank must be 0 to 1"),
        ({"skip_rank": -1}, "skip rank"),
        ({"timeout_s": 60}, "timeout"),
    ],
)
def test_bad_options_are_refused(kwargs, says):
    with pytest.raises(RanksInputError, match=says):
        ranks(**kwargs)


def deterministic(data: dict) -> dict:
    """The recording without its times."""
    keep = ("world", "op", "values", "before", "after", "errors", "slow_rank", "skip_rank")
    out = {k: data[k] for k in keep}
    out["events"] = sorted((e["rank"], e["event"]) for e in data["timeline"])
    return out


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("ranks_slow.json", {"world": 4, "op": "all_reduce", "slow_rank": 2, "delay_ms": 300}),
        ("ranks_skip.json", {"world": 3, "op": "broadcast", "skip_rank": 1, "timeout_s": 1.0}),
    ],
)
def test_recordings_match_the_probe(name, kwargs):
    """The snapshots draw these files; all but the times must still be what torch says."""
    current = ranks(**kwargs).model_dump(mode="json")
    assert deterministic(kept(name, current)) == deterministic(current)
