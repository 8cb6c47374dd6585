"""Predict drills graded end to end: the truth comes from real torch in the sandbox."""

from __future__ import annotations

import pytest

from tests.grading.conftest import Ref
from tutor.content.models import PredictDrill
from tutor.grading.engine import grade, grade_async, plan
from tutor.grading.variants import draw_params


def strides(ref, seed):
    p = draw_params(ref.drill.params, seed)
    a, b, c = p["a"], p["b"], p["c"]
    return (1, b * c, c), (a, b, c)


@pytest.mark.parametrize("spelling", ["({0}, {1}, {2})", "[{0}, {1}, {2}]", "{0}, {1}, {2}"])
def test_three_equivalent_spellings_are_correct(basics, sandbox, spelling):
    ref = basics["permute-strides"]
    truth, _ = strides(ref, 5)
    g = grade(ref, spelling.format(*truth), 5, sandbox)
    assert g.correct, g.feedback
    assert g.params == draw_params(ref.drill.params, 5)
    assert g.expected == str(truth)


def test_row_major_strides_of_the_permuted_shape_are_recognised(basics, sandbox):
    ref = basics["permute-strides"]
    _, (a, b, c) = strides(ref, 5)
    g = grade(ref, f"({a * b}, {b}, 1)", 5, sandbox)  # row-major strides of shape (c, a, b)
    assert g.status == "wrong"
    assert g.category == "row_major_strides"
    assert "row-major" in g.feedback and g.hint


def test_right_numbers_wrong_order(basics, sandbox):
    ref = basics["permute-strides"]
    (s0, s1, s2), _ = strides(ref, 5)
    g = grade(ref, f"({s1}, {s2}, {s0})", 5, sandbox)
    assert not g.correct and g.category == "wrong_order"


def test_transposed_shape(basics, sandbox):
    ref = basics["permute-shape"]
    assert grade(ref, "torch.Size([4, 2, 3])", 0, sandbox).correct
    g = grade(ref, "(2, 4, 3)", 0, sandbox)
    assert g.category == "transposed_shape" and "swapped" in g.feedback


def test_predict_the_error(basics, sandbox):
    ref = basics["view-error"]
    assert grade(ref, "RuntimeError", 0, sandbox).correct
    assert grade(ref, "raises RuntimeError: view size is not compatible", 0, sandbox).correct
    wrong = grade(ref, "(6,)", 0, sandbox)
    assert wrong.status == "wrong" and wrong.category == "non_contiguous_view"
    assert "reshape" in wrong.hint
    assert wrong.expected.startswith("raises RuntimeError")
    other = grade(ref, "IndexError", 0, sandbox)
    assert not other.correct and "different exception" in other.feedback
    assert "RuntimeError" not in other.feedback  # the answer is not given away


def test_exception_predicted_where_torch_returns(basics, sandbox):
    g = grade(basics["permute-shape"], "RuntimeError", 0, sandbox)
    assert g.status == "wrong" and g.category == "predicted_raise"


def test_dtypes(basics, sandbox):
    ref = basics["promote"]
    for text in ("float32", "torch.float32", "torch.float"):
        assert grade(ref, text, 0, sandbox).correct, text
    g = grade(ref, "torch.int64", 0, sandbox)
    assert g.category == "dtype" and g.hint and "float32" not in g.feedback


def test_tensor_values(basics, sandbox):
    ref = basics["small-tensor"]
    assert grade(ref, "[[0, 3], [1, 4], [2, 5]]", 0, sandbox).correct
    assert grade(ref, "tensor([[0, 3],\n        [1, 4],\n        [2, 5]])", 0, sandbox).correct
    g = grade(ref, "[[0, 1], [2, 3], [4, 5]]", 0, sandbox)
    assert g.category == "wrong_order"
    g = grade(ref, "[[0, 1, 2], [3, 4, 5]]", 0, sandbox)
    assert g.category == "transposed_shape"
    g = grade(ref, "[[0, 3], [1, 4], [2, 6]]", 0, sandbox)
    assert g.category == "values" and "[2, 1]" in g.feedback


def test_floats_and_bools(basics, sandbox):
    assert grade(basics["mean"], "1.667", 0, sandbox).correct
    assert grade(basics["mean"], "5/3", 0, sandbox).correct
    assert not grade(basics["mean"], "1.5", 0, sandbox).correct
    assert grade(basics["contiguous"], "False", 0, sandbox).correct
    assert grade(basics["contiguous"], "false", 0, sandbox).correct
    assert not grade(basics["contiguous"], "True", 0, sandbox).correct


def test_malformed_answer_is_invalid(basics, sandbox):
    g = grade(basics["permute-shape"], "(4, 2,", 0, sandbox)
    assert g.status == "invalid" and not g.correct and "read" in g.feedback


def test_authoring_error_is_not_a_truth(sandbox):
    drill = PredictDrill(
        kind="predict", id="typo", prompt="?", setup="x = torch.zeros(2)", ask="y.shape"
    )
    g = grade(Ref("t/typo", drill), "(2,)", 0, sandbox)
    assert g.status == "authoring" and "NameError" in g.feedback and not g.correct


def test_plan_names_the_probe_and_rendered_code(basics):
    p = plan(basics["permute-strides"], "(1, 2, 3)", 5)
    params = draw_params(basics["permute-strides"].drill.params, 5)
    assert p.call is not None and p.decided is None and p.params == params
    assert p.call.target == "tutor.probes.grade_predict:predict"
    assert p.call.kwargs["setup"].strip() == "x = torch.randn({a}, {b}, {c})".format(**params)


async def test_async_grading_uses_the_same_engine(basics):
    from tutor.sandbox import AsyncSandbox

    sandbox = AsyncSandbox()
    try:
        g = await grade_async(basics["promote"], "float32", 0, sandbox)
    finally:
        await sandbox.close()
    assert g.correct


def test_broadcasting_error_gets_the_broadcasting_hint(sandbox):
    drill = PredictDrill(kind="predict", id="b", prompt="?", ask="torch.ones(3) + torch.ones(4)")
    g = grade(Ref("t/b", drill), "(4,)", 0, sandbox)
    assert g.status == "wrong" and g.category == "broadcasting"
    assert "right-aligned" in g.hint
    assert grade(Ref("t/b", drill), "RuntimeError", 0, sandbox).correct


def test_a_hint_names_no_entry_the_feedback_did_not_name(sandbox):
    setup = "w = torch.tensor([2.0, -3.0], requires_grad=True)\n(w * 1).sub_(0.5)"
    drill = PredictDrill(kind="predict", id="w", prompt="?", setup=setup, ask="w.tolist()")
    ref = Ref("t/w", drill)
    assert grade(ref, "[2.0, -3.0]", 0, sandbox).correct
    for answer, category in [
        ("RuntimeErr", "predicted_raise"),  # a misspelt exception name still says "it raises"
        ("error", "predicted_raise"),
        ("tensor", "type"),
    ]:
        g = grade(ref, answer, 0, sandbox)
        assert g.status == "wrong" and g.category == category, answer
        assert "named above" not in (g.hint or ""), answer
    g = grade(ref, "[2.0, -2.5]", 0, sandbox)  # the entry is named, and so is the hint
    assert g.category == "values" and "Entry 1" in g.feedback and "named above" in g.hint
