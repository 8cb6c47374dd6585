"""The logits probe, in-process with real torch: CE gradient is p - y; softmax first has a floor."""

from __future__ import annotations

import math

import pytest

from tutor.probes.data_logits import parse_logits
from tutor.probes.logits import logits


def test_gradient_is_p_minus_y():
    r = logits([2.0, 1.0, 0.1], target_class=0)
    assert r.grad_matches and r.max_diff < 1e-6
    assert sum(r.probs) == pytest.approx(1)
    assert r.correct.loss == pytest.approx(-math.log(r.probs[0]), rel=1e-6)
    assert r.correct.grad == pytest.approx(r.p_minus_y, abs=1e-6)
    assert r.correct.floor == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("classes", [2, 3, 10])
def test_softmax_first_floor_and_shrunken_gradient(classes):
    r = logits([0.0] * classes, target_class=1, softmax_first=True)
    assert r.active == "softmax_first" and r.shown is r.softmax_first
    assert r.softmax_first.floor == pytest.approx(math.log(1 + (classes - 1) / math.e), rel=1e-5)
    assert r.softmax_first.grad_norm < r.correct.grad_norm


def test_bad_input():
    with pytest.raises(ValueError, match="target"):
        logits([1.0, 2.0], target_class=5)
    with pytest.raises(ValueError, match="between 2"):
        logits([1.0])
    with pytest.raises(ValueError, match="not a list"):
        parse_logits("1, two")
    assert parse_logits("[2, 1 0.1]") == [2.0, 1.0, 0.1]


def test_sweep_shows_the_floor():
    r = logits([2.0, 1.0, 0.1], target_class=1)
    sweep = r.sweep
    assert sweep is not None and len(sweep.x) == len(sweep.correct) == len(sweep.softmax_first)
    # the right loss keeps falling as the target's logit grows; softmax-first stays above its floor
    assert sweep.correct == sorted(sweep.correct, reverse=True)
    assert min(sweep.softmax_first) > r.softmax_first.floor - 1e-6
    assert sweep.correct[-1] < min(sweep.softmax_first)
