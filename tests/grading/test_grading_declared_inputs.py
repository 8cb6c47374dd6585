"""Declared inputs: every constraint a check declares holds on every trial, over many seeds,
and the trials come in order (cases, edge sizes, random draws with distinct dims)."""

from __future__ import annotations

import pytest
import torch

from tutor.content.models import Check
from tutor.grading.trials import AuthoringError, bound_value, trial_specs
from tutor.probes.grade_inputs import make_inputs

SEEDS = range(60)


def check(**kw) -> Check:
    return Check.model_validate({"call": "f", "trials": 8, **kw})


def inputs(c: Check, seed: int, params=None):
    for spec in trial_specs(c, params or {}, seed):
        yield spec, make_inputs(spec)


def test_int_range_tied_to_a_param_holds():
    c = check(args={"a": {"tensor": ["n"], "dtype": "int64", "range": [0, "j - 1"]},
                    "j": {"value": "{j}"}},
              params={"n": {"int": [0, 9]}, "j": {"int": [1, 6]}})  # fmt: skip
    for seed in SEEDS:
        for spec, (a, j) in inputs(c, seed):
            assert a.dtype == torch.int64 and j == spec["params"]["j"]
            assert a.numel() == 0 or (int(a.min()) >= 0 and int(a.max()) <= j - 1)


def test_a_range_may_name_a_value_argument():
    c = check(args={"lengths": {"tensor": [4], "dtype": "int64", "range": [0, "width"]},
                    "width": {"value": 3}})  # fmt: skip
    for seed in SEEDS:
        for _, (lengths, _w) in inputs(c, seed):
            assert int(lengths.max()) <= 3 and int(lengths.min()) >= 0


def test_sorted_unique_ints_per_row():
    c = check(args={"b": {"tensor": [2, "n"], "dtype": "int32", "range": [-5, 5],
                          "sorted": True, "unique": True}},
              params={"n": {"int": [1, 11]}})  # fmt: skip
    for seed in SEEDS:
        for _, (b,) in inputs(c, seed):
            assert b.dtype == torch.int32
            for row in b:
                assert row.tolist() == sorted(set(row.tolist()))
                assert all(-5 <= v <= 5 for v in row.tolist())


def test_fixed_sum_within_a_range():
    c = check(args={"parts": {"tensor": [3, "n"], "dtype": "int64", "sum": "n * 2",
                              "range": [1, 4]}},
              params={"n": {"int": [1, 5]}})  # fmt: skip
    for seed in SEEDS:
        for spec, (parts,) in inputs(c, seed):
            n = spec["params"]["n"]
            assert parts.sum(1).tolist() == [2 * n] * 3
            assert int(parts.min()) >= 1 and int(parts.max()) <= 4


def test_bool_mask_has_the_exact_density():
    c = check(args={"m": {"tensor": ["n", 4], "dtype": "bool", "density": 0.25}},
              params={"n": {"int": [1, 6]}})  # fmt: skip
    for seed in SEEDS:
        for spec, (m,) in inputs(c, seed):
            assert m.dtype == torch.bool
            assert int(m.sum()) == round(0.25 * spec["params"]["n"] * 4)


def test_float_range_and_sorted_floats():
    c = check(args={"x": {"tensor": ["n"], "range": [-0.5, 2], "sorted": True}},
              params={"n": {"int": [1, 20]}})  # fmt: skip
    for seed in SEEDS:
        for _, (x,) in inputs(c, seed):
            assert float(x.min()) >= -0.5 and float(x.max()) <= 2
            assert torch.equal(x, x.sort().values)


def test_distinct_dims_always_differ():
    c = check(args={"x": {"tensor": ["n", "m"]}}, distinct=["n", "m"],
              params={"n": {"int": [2, 3]}, "m": {"int": [2, 3]}})  # fmt: skip
    for seed in SEEDS:
        for spec, (x,) in inputs(c, seed):
            assert spec["params"]["n"] != spec["params"]["m"]
            assert x.shape[0] != x.shape[1]


def test_cases_first_then_edges_then_random():
    c = check(args={"a": {"tensor": ["n"], "dtype": "int64"}, "k": {"value": 2}},
              params={"n": {"int": [3, 5]}}, edges=["n"],
              cases=[{"a": [7, 7], "k": 5}, {"a": []}])  # fmt: skip
    for seed in SEEDS:
        specs = trial_specs(c, {}, seed)
        assert [s["kind"] for s in specs] == ["case"] * 2 + ["edge"] * 2 + ["random"] * 8
        first = make_inputs(specs[0])
        assert first[0].tolist() == [7, 7] and first[0].dtype == torch.int64 and first[1] == 5
        assert make_inputs(specs[1])[0].shape == (0,) and make_inputs(specs[1])[1] == 2
        assert [make_inputs(s)[0].shape[0] for s in specs[2:4]] == [0, 1]
        assert all(3 <= make_inputs(s)[0].shape[0] <= 5 for s in specs[4:])


def test_trials_replay_from_their_seed():
    c = check(args={"x": {"tensor": ["n", 2], "range": [0, 1]}}, params={"n": {"int": [1, 9]}})
    a = [make_inputs(s)[0] for s in trial_specs(c, {}, 7)]
    b = [make_inputs(s)[0] for s in trial_specs(c, {}, 7)]
    assert all(torch.equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(
    ("arg", "words"),
    [
        ({"tensor": [5], "dtype": "int64", "range": [0, 2], "unique": True}, "do not fit"),
        ({"tensor": [3], "dtype": "int64", "range": [0, 1], "sum": 9}, "cannot add up"),
        ({"tensor": [3], "dtype": "int64", "range": [4, 1]}, "empty"),
    ],
)
def test_constraints_that_cannot_hold_are_named(arg, words):
    (spec,) = trial_specs(check(args={"a": arg}, trials=1), {}, 0)
    with pytest.raises(ValueError, match=words):
        make_inputs(spec)


def test_bounds_are_plain_arithmetic_of_params():
    assert bound_value("2 * (j - 1) + 1", {"j": 3}) == 5
    with pytest.raises(ValueError, match="not a numeric param"):
        bound_value("k - 1", {"j": 3})
    with pytest.raises(ValueError, match="only params"):
        bound_value("__import__('os')", {})


def test_distinct_that_cannot_hold_is_an_authoring_error():
    c = check(args={"x": {"tensor": ["n", "m"]}}, distinct=["n", "m"],
              params={"n": {"int": [2, 2]}, "m": {"int": [2, 2]}})  # fmt: skip
    with pytest.raises(AuthoringError, match="cannot be drawn all different"):
        trial_specs(c, {}, 0)
