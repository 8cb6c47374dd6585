"""The loop probe, run in-process with real torch: the numbers of COURSE.md chapter 4."""

from __future__ import annotations

import pytest

from tutor.probes.data_loop_trace import diagnose
from tutor.probes.loop_trace import trace


def test_line_healthy_run_fits_w3_bm1():
    t = trace("line", "none")
    assert len(t.steps) == 200 and t.lr == 0.1
    assert t.losses[0] == 17.875
    w, b = t.steps[-1].states[-1].params
    assert w == pytest.approx(3, abs=1e-5) and b == pytest.approx(-1, abs=1e-5)
    assert t.losses[-1] < 1e-9
    assert t.diagnosis is not None and t.diagnosis.level == "ok"


def test_line_lines_ran_in_order_with_state_after_each():
    t = trace("line", "none", steps=1)
    assert t.lines == [
        "optimizer.zero_grad()",
        "out = model(x)",
        "loss = criterion(out, y)",
        "loss.backward()",
        "optimizer.step()",
    ]
    zero, fwd, loss, back, step = t.steps[0].states
    assert zero.grads == [None, None] and loss.loss == 17.875
    # d/dw mean((wx+b-y)^2) at w=b=0 is -2 mean(x y) = -11.25; d/db = -2 mean(y) = 2
    assert back.grads == pytest.approx([-11.25, 2.0])
    assert step.params == pytest.approx([1.125, -0.2])


def test_no_zero_grad_rings():
    t = trace("line", "no_zero_grad")
    assert [round(x, 3) for x in t.losses[:3]] == [17.875, 7.232, 0.198]
    tail = t.losses[20:]
    assert min(tail) == pytest.approx(0.066, abs=1e-3)
    assert max(t.losses[2:]) == pytest.approx(19.7, abs=0.1)
    assert "accumulate" in t.diagnosis.cause
    assert "rings" in t.diagnosis.symptom


def test_lr_too_high_explodes():
    t = trace("line", "lr_too_high")
    assert t.lr == 1.5
    assert t.losses[1] > 10 * t.losses[0]
    assert None in t.losses  # inf/NaN stored as None
    assert "lr too high" in t.diagnosis.cause


def test_free_lr_overrides_bug():
    t = trace("line", "none", lr=1.5, steps=10)
    assert t.losses[-1] > 1e6 and t.diagnosis.level == "bad"


def test_step_before_backward_never_moves():
    t = trace("line", "step_before_backward", steps=20)
    assert t.lines[3] == "optimizer.step()" and t.lines[4] == "loss.backward()"
    assert set(t.losses) == {17.875}
    assert "before loss.backward()" in t.diagnosis.cause


def test_classify_healthy_learns():
    t = trace("classify", "none")
    assert t.steps[-1].accuracy > 0.85 and t.steps[-1].eval_accuracy > 0.85
    assert t.eval_repeat[0] == t.eval_repeat[1]
    assert t.diagnosis.level == "ok"


def test_classify_softmax_into_ce_floor():
    t = trace("classify", "softmax_into_ce")
    assert t.criterion_input.row_sum == pytest.approx(1.0, abs=1e-4)
    assert min(x for x in t.losses if x is not None) > 0.55
    assert "softmax" in t.diagnosis.cause


def test_classify_no_eval_disagrees_with_itself():
    t = trace("classify", "no_eval")
    assert t.eval_lines[0].startswith("#")
    assert t.eval_repeat[0] != t.eval_repeat[1]
    assert "train mode" in t.diagnosis.cause


def test_classify_wrong_loss_at_chance():
    t = trace("classify", "wrong_loss")
    assert t.criterion == "L1Loss"
    assert "chance" in t.diagnosis.symptom


def test_deterministic():
    assert trace("classify", "no_eval", steps=30) == trace("classify", "no_eval", steps=30)


def test_diagnosis_of_a_prefix_sees_only_that_prefix():
    t = trace("line", "no_zero_grad", steps=40)
    assert diagnose(t, upto=0).level == "ok"
    assert "accumulate" in diagnose(t, upto=5).cause


def test_one_step_claims_no_trend():
    t = trace("line", "none", steps=20)
    one = diagnose(t, upto=1)
    assert one.level == "ok" and "falls" not in one.symptom and "→" not in one.symptom
    assert one.symptom == "loss after the first step: 17.88"
    assert diagnose(t, upto=2).symptom.startswith("loss falls: 17.88 → ")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"problem": "circle"}, "unknown problem"),
        ({"bug": "typo"}, "unknown bug"),
        ({"problem": "line", "bug": "no_eval"}, "classifier"),
        ({"lr": -1.0}, "positive"),
        ({"steps": 0}, "steps"),
    ],
)
def test_bad_arguments_say_why(kwargs, message):
    with pytest.raises(ValueError, match=message):
        trace(**kwargs)


@pytest.mark.parametrize(
    "lr, symptom, cause",
    [(1e-6, "loss flat", "lr too small"), (1e-4, "slowly", "lr too small")],
)
def test_small_lr_is_flat_or_slow(lr, symptom, cause):
    t = trace("line", "none", lr=lr)
    assert t.diagnosis.level == "warn"
    assert symptom in t.diagnosis.symptom and cause in t.diagnosis.cause
