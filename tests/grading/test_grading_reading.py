"""Predict answers read as a person writes them: a unit word after the number, thousands
separators inside floats, an absolute tolerance near zero, the question's unit, and feedback in
torch's language (torch-free)."""

from __future__ import annotations

import pytest

from tutor.content.units import canonical, prompt_unit
from tutor.grading.answers import AnswerError, Measured, parse_answer
from tutor.grading.predict import judge_predict


def _int(v: int) -> dict:
    return {"type": "int", "value": v}


def _float(v: float) -> dict:
    return {"type": "float", "value": v}


def _list(*items: dict) -> dict:
    return {"type": "list", "items": list(items)}


def _size(*items: int) -> dict:
    return {"type": "size", "items": [_int(i) for i in items]}


def _tensor(values: list, shape: list[int], dtype: str = "float32") -> dict:
    return {"type": "tensor", "shape": shape, "dtype": dtype, "values": values}


# ---------------------------------------------------------------- a word after the number


@pytest.mark.parametrize(
    ("truth", "text"),
    [
        (_int(16), "16 samples"),
        (_int(3), "3 compiles"),
        (_float(209.4), "209.4 MiB"),
        (_float(209.4), "209.4MiB"),
        (_int(16), "16 samples."),
        (_int(99840), "99,840 samples"),
        (_size(16), "16 samples"),
    ],
)
def test_a_number_followed_by_a_word_reads_as_the_number(truth, text):
    verdict = judge_predict(truth, None, text, 1e-4)
    assert verdict.correct, verdict.feedback


def test_the_word_never_makes_a_wrong_number_right():
    verdict = judge_predict(_int(16), None, "15 samples", 1e-4)
    assert verdict.status == "wrong" and verdict.feedback == "Not 15."


def test_a_word_that_is_a_value_is_not_a_unit():
    assert parse_answer("2 inf") != Measured(2, "inf")
    assert isinstance(parse_answer("16 samples"), Measured)
    assert parse_answer("1 12 4") == [1, 12, 4]  # numbers only: still a sequence


def test_a_string_truth_keeps_the_words():
    truth = {"type": "str", "value": "16 samples"}
    assert judge_predict(truth, None, "16 samples", 1e-4).correct


# ---------------------------------------------------------------- the question's unit


@pytest.mark.parametrize("text", ["209.4 KiB", "209.4 kib", "209.4 GB", "209.4 bytes"])
def test_another_unit_is_wrong_with_that_reason(text):
    verdict = judge_predict(_float(209.4), None, text, 1e-4, unit="MiB")
    assert verdict.status == "wrong" and verdict.category == "unit"
    written = canonical(text.split()[1])
    assert verdict.feedback == f"Your answer is in {written}; the question asks for MiB."


@pytest.mark.parametrize("text", ["209.4", "209.4 MiB", "209.4 mib", "209.4 mebibytes"])
def test_the_same_unit_or_none_reads_as_the_number(text):
    assert judge_predict(_float(209.4), None, text, 1e-4, unit="MiB").correct


def test_time_and_percent_units():
    assert judge_predict(_float(0.5), None, "0.5 ms", 1e-4, unit="ms").correct
    assert judge_predict(_float(0.5), None, "500 us", 1e-4, unit="ms").category == "unit"
    assert judge_predict(_float(0.5), None, "0.5 µs", 1e-4, unit="ms").category == "unit"
    assert judge_predict(_float(25.0), None, "25%", 1e-4, unit="%").correct
    assert judge_predict(_float(25.0), None, "25 percent", 1e-4, unit="%").correct


def test_without_a_unit_a_known_unit_word_reads_as_the_number():
    assert judge_predict(_float(209.4), None, "209.4 KiB", 1e-4).correct


@pytest.mark.parametrize(
    ("prompt", "unit"),
    [
        ("What is `round(train.nbytes / 1024**2, 1)`, its size in MiB to one decimal?", "MiB"),
        ("How many bytes does it hold (`.nbytes`)?", "B"),
        ("What is `m.median`, in seconds per call?", "s"),
        ("The first call took 900 ms; how many ms does the second take?", "ms"),
        ("A 4 KiB page holds how many bytes?", None),  # two units: the drill must say
        ("What is `x.min()` of tensor A and B?", None),  # code and letters are no units
        ("What does `x % 3` give?", None),
        ("Let us count the elements.", None),
    ],
)
def test_the_unit_a_prompt_names(prompt, unit):
    assert prompt_unit(prompt) == unit


# ---------------------------------------------------------------- thousands separators


@pytest.mark.parametrize(
    ("truth", "text"),
    [
        (_float(99840.0), "99,840.0"),
        (_float(99840.0), "99,840"),
        (_float(-1024.5), "-1,024.5"),
        (_float(1234567.0), "1,234,567.0"),
        (_int(1000), "1,000"),
        (_tensor(99840.0, []), "99,840.0"),
    ],
)
def test_thousands_separators_inside_one_number(truth, text):
    verdict = judge_predict(truth, None, text, 1e-4)
    assert verdict.correct, verdict.feedback


def test_a_comma_with_a_space_separates_items():
    assert judge_predict(_size(1, 12, 4), None, "1, 12, 4", 1e-4).correct
    assert judge_predict(_size(1, 12, 4), None, "1,12,4", 1e-4).correct
    spaced = judge_predict(_int(1000), None, "1, 000", 1e-4)  # two numbers, not one thousand
    assert spaced.status == "wrong" and "not several values" in spaced.feedback
    assert judge_predict(_size(1, 0), None, "1,000", 1e-4).correct  # a sequence truth: items


@pytest.mark.parametrize("text", ["3,5", "1,0000", "12,34.5", "3,5 MiB"])
def test_a_comma_that_is_no_separator_is_not_guessed(text):
    verdict = judge_predict(_float(3.5), None, text, 1e-4)
    assert verdict.status == "invalid"
    assert "not a thousands separator" in verdict.feedback and "3.5" in verdict.feedback


def test_the_float_is_not_read_as_a_list():
    verdict = judge_predict(_float(99840.0), None, "98,840.0", 1e-4)
    assert verdict.status == "wrong" and "[" not in verdict.feedback


# ---------------------------------------------------------------- an absolute tolerance near zero


def test_zero_is_right_for_float_round_off_of_zero():
    truth = _float(-7.450580596923828e-09)  # chapter 12's momentum-lost-on-resume, a=5
    verdict = judge_predict(truth, None, "0", 1e-4, atol=1e-6)
    assert verdict.correct and "round-off" in verdict.feedback
    assert judge_predict(truth, None, "0.0", 1e-4, atol=1e-6).correct
    assert not judge_predict(truth, None, "0", 1e-4, atol=0.0).correct  # atol: 0 keeps it out


def test_atol_does_not_widen_a_large_truth():
    assert not judge_predict(_float(1000.0), None, "1000.1", 1e-6, atol=1e-6).correct
    assert judge_predict(_float(1e-5), None, "0", 1e-4, atol=1e-6).status == "wrong"


def test_atol_applies_to_tensor_values():
    truth = _tensor([1.0, -3e-9], [2])
    assert judge_predict(truth, None, "[1.0, 0.0]", 1e-4, atol=1e-6).correct
    assert not judge_predict(truth, None, "[1.0, 0.0]", 1e-4).correct


def test_an_int_truth_stays_exact():
    assert not judge_predict(_int(1), None, "0", 1e-4, atol=10.0).correct


# ---------------------------------------------------------------- torch's language

INTERNAL = ("TensorLit", "Seq", "Approx", "Measured", "Word(", "ExcName", "Device(", "values=")


@pytest.mark.parametrize(
    ("truth", "text", "says"),
    [
        (_list(_float(17.0)), "tensor([17.])", "Torch gives a list here, not a tensor."),
        (_float(17.0), "tensor(17.)", "Torch gives a Python float here, not a tensor."),
        (_int(3), "tensor(3)", "Torch gives a Python int here, not a tensor."),
        ({"type": "dtype", "name": "int64"}, "3", "Torch gives a dtype here, not a number."),
        ({"type": "bool", "value": True}, "[1, 2]", "not several values"),
        (_size(2, 3), "tensor([2, 3])", "Torch gives a torch.Size here, not a tensor."),
        (_int(3), "{1: 2}", "Torch gives a Python int here, not a dict."),
        ({"type": "device", "name": "cpu"}, "4", "Torch gives a device here, not a number."),
    ],
)
def test_another_kind_of_value_is_named_in_torchs_words(truth, text, says):
    verdict = judge_predict(truth, None, text, 1e-4)
    assert verdict.status == "wrong" and says in verdict.feedback
    assert not any(name in verdict.feedback for name in INTERNAL)


def test_the_kind_feedback_does_not_give_the_value_away():
    verdict = judge_predict(_list(_float(17.0)), None, "tensor([17.])", 1e-4)
    assert "17" not in verdict.feedback


@pytest.mark.parametrize(
    "text",
    [
        "tensor([[1., 2.]], dtype=torch.float64)",
        "torch.device('cuda', 0)",
        "[tensor([1.]), 2]",
        "(1.5, torch.Size([2]))",
        "{1: tensor([2.])}",
        "16 samples",
        "RuntimeError",
        "float32",
    ],
)
@pytest.mark.parametrize(
    "truth",
    [_int(3), _float(0.5), _list(_int(1), _int(2)), _size(4), _tensor([[1.0, 2.0]], [1, 2])],
)
def test_no_feedback_names_a_reader_type(truth, text):
    verdict = judge_predict(truth, None, text, 1e-4)
    assert not any(name in verdict.feedback for name in INTERNAL), verdict.feedback


def test_a_wrong_value_is_printed_as_torch_prints_it():
    truth = _list(_int(1), _int(2))
    verdict = judge_predict(truth, None, "(tensor([1.]), 2, 3)", 1e-4)
    assert verdict.status == "wrong" and "TensorLit" not in verdict.feedback


def test_read_errors_say_what_to_type():
    with pytest.raises(AnswerError):
        parse_answer("1.2.3 MiB")
