"""Answers graded fairly, and feedback that never gives the expected answer away (torch-free)."""

from __future__ import annotations

import pytest

from tutor.content.models import OrderDrill
from tutor.grading.choices import judge_order
from tutor.grading.hints import HINTS, exception_category
from tutor.grading.predict import judge_predict


def _int(v: int) -> dict:
    return {"type": "int", "value": v}


def _size(*items: int) -> dict:
    return {"type": "size", "items": [_int(i) for i in items]}


RUNTIME = {"type": "exception", "name": "RuntimeError", "message": "view size is not compatible"}


@pytest.mark.parametrize("text", ["470,292", "470_292", "470292", " 470,292 "])
def test_thousands_separators_for_integers(text):
    assert judge_predict(_int(470292), None, text, 1e-4).correct


def test_a_comma_still_separates_a_sequence():
    assert judge_predict(_size(470, 292), None, "470,292", 1e-4).correct
    assert not judge_predict(_int(470292), None, "470,29", 1e-4).correct


@pytest.mark.parametrize(("text", "truth"), [("yes", True), ("no", False), ("Yes", True)])
def test_yes_and_no_answer_a_boolean(text, truth):
    verdict = judge_predict({"type": "bool", "value": truth}, None, text, 1e-4)
    assert verdict.correct and "read as" in verdict.feedback
    wrong = judge_predict({"type": "bool", "value": not truth}, None, text, 1e-4)
    assert not wrong.correct and wrong.category == "bool"


def test_near_miss_exception_gets_check_the_spelling():
    verdict = judge_predict(RUNTIME, None, "RuntimError", 1e-4)
    assert verdict.status == "wrong" and "spelling" in verdict.feedback
    assert "RuntimeError" not in verdict.feedback


def test_other_exception_is_not_named_by_the_feedback():
    verdict = judge_predict(RUNTIME, None, "IndexError", 1e-4)
    assert "RuntimeError" not in verdict.feedback and "IndexError" in verdict.feedback


def test_leniency_is_said_in_the_feedback():
    one = judge_predict(_size(3), None, "3", 1e-4)
    assert one.correct and "one-element size" in one.feedback
    listed = {"type": "tuple", "items": [_int(2), _int(3)]}
    as_list = judge_predict(listed, None, "[2, 3]", 1e-4)
    assert as_list.correct and "list" in as_list.feedback
    assert judge_predict(listed, None, "(2, 3)", 1e-4).feedback == "Correct."


def test_a_wrong_scalar_gets_a_scalar_hint():
    verdict = judge_predict(_int(16), None, "0", 1e-4)
    assert verdict.category == "value" and "entry" not in HINTS["value"]


def test_a_scalar_for_a_tensor_is_not_a_broadcasting_mistake():
    truth = {"type": "tensor", "shape": [2, 3], "dtype": "float32", "values": [[1] * 3] * 2}
    verdict = judge_predict(truth, None, "1.0", 1e-4)
    assert verdict.category != "broadcasting"


def test_a_dtype_question_is_not_always_promotion():
    truth = {"type": "dtype", "name": "int64"}
    verdict = judge_predict(truth, None, "float16", 1e-4)
    assert verdict.category == "dtype" and "wins" not in verdict.feedback
    assert "int64" not in verdict.feedback


@pytest.mark.parametrize(
    ("message", "category"),
    [
        ("modified by an inplace operation: [torch.FloatTensor [3]], which is output 0", "inplace_saved"),
        ("Trying to backward through the graph a second time", "backward_twice"),
        ("a leaf Variable that requires grad is being used in an in-place operation.", "inplace_leaf"),
        ("result type Float can't be cast to the desired output type Long", "dtype_promotion"),
        ("Expected all tensors to be on the same device", "device_mismatch"),
    ],
)  # fmt: skip
def test_exception_messages_pick_the_hint_that_fits(message, category):
    assert exception_category(message) == category
    assert category in HINTS


def test_hints_fit_their_failure():
    assert "shown above" not in HINTS["raised"]
    assert "whole tensors" not in HINTS["forbidden"]
    assert "whole tensors" in HINTS["forbidden_loop"]


FIVE = OrderDrill.model_validate(
    {
        "id": "five",
        "kind": "order",
        "prompt": "order",
        "lines": ["zero_grad()", "out = model(x)", "loss = f(out)", "backward()", "step()"],
        "accept": [["out = model(x)", "loss = f(out)", "backward()", "step()", "zero_grad()"]],
    }
)


def test_order_accepts_the_alternative_it_lists():
    alt = "out = model(x)\nloss = f(out)\nbackward()\nstep()\nzero_grad()"
    verdict = judge_order(FIVE, {}, alt)
    assert verdict.correct and "accepts that order" in verdict.feedback


def test_order_blames_the_line_that_is_really_out_of_place():
    between = "out = model(x)\nloss = f(out)\nbackward()\nzero_grad()\nstep()"
    verdict = judge_order(FIVE, {}, between)
    assert not verdict.correct and "`zero_grad()`" in verdict.feedback


def test_accept_must_use_the_drills_lines():
    with pytest.raises(ValueError, match="accept"):
        OrderDrill.model_validate(
            {"id": "x", "kind": "order", "prompt": "p", "lines": ["a", "b"], "accept": [["a"]]}
        )


def test_limits_are_said_as_limits():
    from tutor.grading.grade import Judgement
    from tutor.grading.probe_data import CODE_TIMEOUT, MEMORY_MB
    from tutor.grading.probe_data import probe_data as _data
    from tutor.sandbox.result import RunResult, Status

    raw = "std::bad_alloc: DefaultCPUAllocator: not enough memory: you tried to allocate 8 GB"
    memory = _data(RunResult(status=Status.memory, reason=raw))
    assert isinstance(memory, Judgement) and memory.status == "memory"
    assert memory.feedback == f"Your code used more than {MEMORY_MB} MB, the drill's memory limit."
    slow = _data(RunResult(status=Status.timeout, reason="killed after 10 s"))
    assert isinstance(slow, Judgement) and slow.status == "timeout"
    assert f"longer than {CODE_TIMEOUT:g} s" in slow.feedback


def test_a_strict_drill_refuses_the_looser_forms():
    one = judge_predict(_size(3), None, "3", 1e-4, lenient=False)
    assert one.status == "wrong" and one.category == "type" and "form" in one.feedback
    assert "Size" not in one.feedback  # says the form is wrong, not which form is right
    listed = {"type": "tuple", "items": [_int(2), _int(3)]}
    assert not judge_predict(listed, None, "[2, 3]", 1e-4, lenient=False).correct
    assert judge_predict(listed, None, "(2, 3)", 1e-4, lenient=False).correct
    assert not judge_predict({"type": "bool", "value": True}, None, "yes", 1e-4, False).correct
    assert judge_predict(_size(3), None, "(3,)", 1e-4, lenient=False).correct


def test_the_lenient_key_reaches_the_judge(sandbox):
    from tests.grading.conftest import Ref
    from tutor.content.models import PredictDrill
    from tutor.grading.engine import grade

    spec = {"id": "s", "kind": "predict", "prompt": "p", "ask": "torch.zeros(3).shape"}
    loose = Ref("t/s", PredictDrill.model_validate(spec))
    strict = Ref("t/s", PredictDrill.model_validate({**spec, "lenient": False}))
    g = grade(loose, "3", 1, sandbox)
    assert g.correct and "one-element size" in g.feedback
    assert grade(strict, "3", 1, sandbox).status == "wrong"
    assert grade(strict, "torch.Size([3])", 1, sandbox).correct
