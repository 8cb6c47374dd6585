"""Reading typed predict answers: generous, and safe (nothing is evaluated)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.grading.answers import AnswerError, ExcName, Seq, TensorLit, Word, parse_answer
from tutor.grading.matching import equal

SIZE = {"type": "size", "items": [{"type": "int", "value": n} for n in (4, 2, 3)]}
TUPLE = {"type": "tuple", "items": [{"type": "int", "value": n} for n in (1, 12, 4)]}


@pytest.mark.parametrize(
    "text",
    ["(1, 12, 4)", "[1, 12, 4]", "1, 12, 4", "1 12 4", "`(1, 12, 4)`", "torch.Size([1, 12, 4])"],
)
def test_sequence_spellings_agree(text):
    assert equal(TUPLE, parse_answer(text), 1e-4) is None


@pytest.mark.parametrize("text", ["(1, 4, 12)", "(1, 12)", "(1, 12, 4, 1)", "12"])
def test_wrong_sequences_disagree(text):
    assert equal(TUPLE, parse_answer(text), 1e-4) is not None


def test_size_equals_tuple():
    assert equal(SIZE, parse_answer("(4, 2, 3)"), 0) is None
    assert isinstance(parse_answer("torch.Size([4, 2, 3])"), Seq)


@pytest.mark.parametrize("text", ["float32", "torch.float32", "torch.float", "float"])
def test_dtype_spellings(text):
    assert equal({"type": "dtype", "name": "float32"}, parse_answer(text), 0) is None


def test_dtype_mismatch():
    assert equal({"type": "dtype", "name": "float32"}, parse_answer("float64"), 0)
    assert equal({"type": "dtype", "name": "int64"}, parse_answer("torch.long"), 0) is None


@pytest.mark.parametrize("text", ["cpu", "device(type='cpu')", "torch.device('cpu')"])
def test_device_spellings(text):
    assert equal({"type": "device", "name": "cpu"}, parse_answer(text), 0) is None


def test_floats_with_tolerance_and_rounding():
    third = {"type": "float", "value": 1 / 3}
    for good in ("0.3333", "0.333", "1/3", "0.33333333"):
        assert equal(third, parse_answer(good), 1e-4) is None, good
    for bad in ("0.3", "0.34", "1/4", "True"):
        assert equal(third, parse_answer(bad), 1e-4) is not None, bad
    assert equal({"type": "float", "value": "nan"}, parse_answer("nan"), 1e-4) is None


def test_ints_and_bools_are_distinct():
    assert equal({"type": "int", "value": 1}, parse_answer("True"), 0) is not None
    assert equal({"type": "bool", "value": True}, parse_answer("1"), 0) is not None
    assert equal({"type": "bool", "value": False}, parse_answer("false"), 0) is None
    assert equal({"type": "int", "value": 6}, parse_answer("6.0"), 0) is None


def test_tensor_as_nested_lists_or_repr():
    truth = {
        "type": "tensor",
        "shape": [2, 2],
        "dtype": "float32",
        "values": [[1.0, 2.0], [3.0, 4.5]],
    }
    for text in (
        "[[1, 2], [3, 4.5]]",
        "tensor([[1., 2.], [3., 4.5]])",
        "tensor([[1., 2.],\n [3., 4.5]])",
    ):
        assert equal(truth, parse_answer(text), 1e-4) is None, text
    assert equal(truth, parse_answer("tensor([[1., 2.], [3., 4.5]], dtype=torch.float64)"), 1e-4)
    assert equal(truth, parse_answer("[[1, 2, 3, 4.5]]"), 1e-4)
    assert equal(truth, parse_answer("[[1, 2], [3, 4]]"), 1e-4)


def test_printed_tensor_with_grad_fn():
    got = parse_answer("tensor([2., 4.], grad_fn=<MulBackward0>)")
    assert isinstance(got, TensorLit) and got.values == [2.0, 4.0]


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError",
        "raises RuntimeError",
        "RuntimeError: shape '[5]' is invalid",
        "torch.RuntimeError",
    ],
)
def test_exception_names(text):
    answer = parse_answer(text)
    assert isinstance(answer, ExcName) and answer.name == "RuntimeError"
    assert equal({"type": "exception", "name": "RuntimeError", "message": "x"}, answer, 0) is None


def test_exception_versus_value():
    assert equal(
        {"type": "exception", "name": "RuntimeError", "message": ""}, parse_answer("(2, 3)"), 0
    )
    assert equal(TUPLE, parse_answer("IndexError"), 0)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "__import__('os').system('true')",
        "open('/etc/passwd')",
        "x.shape[0]",
        "lambda: 1",
        "9**9**9",
    ],
)
def test_unreadable_or_unsafe_answers_are_refused(text):
    with pytest.raises(AnswerError):
        parse_answer(text)


def test_bare_words_are_kept_for_interpretation():
    assert parse_answer("cpu") == Word("cpu")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_read_or_refused_cleanly(text):
    with contextlib.suppress(AnswerError):
        parse_answer(text)


TRUTHS = [
    TUPLE,
    SIZE,
    {"type": "tensor", "shape": [2, 2], "dtype": "bool", "values": [[True, False], [False, True]]},
    {"type": "tensor", "shape": [], "dtype": "float32", "values": 1.5},
    {"type": "tensor", "shape": [3], "dtype": "int64", "values": None, "numel": 3},
    {"type": "float", "value": "nan"},
    {"type": "int", "value": 3},
    {"type": "dtype", "name": "float16"},
    {"type": "device", "name": "cpu"},
    {"type": "exception", "name": "RuntimeError", "message": "The size of tensor a (3) must match"},
    {"type": "dict", "items": [[{"type": "str", "value": "a"}, {"type": "int", "value": 1}]]},
    {
        "type": "other",
        "pytype": "Linear",
        "repr": "Linear(in_features=2, out_features=3, bias=True)",
    },
    {"type": "none"},
]
ANSWERS = st.one_of(
    st.text(max_size=40),
    st.lists(
        st.one_of(st.integers(-5, 5), st.floats(allow_nan=True), st.sampled_from(["a", "True"])),
        max_size=5,
    ).map(str),
    st.lists(st.lists(st.integers(0, 3), max_size=3), max_size=3).map(str),
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(TRUTHS), ANSWERS)
def test_judging_any_answer_against_any_truth_never_crashes(truth, text):
    from tutor.grading.predict import judge_predict

    verdict = judge_predict(truth, None, text, 1e-4)
    assert verdict.status in ("correct", "wrong", "invalid")


def test_cpp_dtype_names_are_accepted():
    assert equal({"type": "dtype", "name": "float32"}, parse_answer("Float"), 0) is None
    assert equal({"type": "dtype", "name": "int64"}, parse_answer("Long"), 0) is None
