"""Judge a predict answer against the truth torch produced, and say how it is wrong.

Besides right/wrong, the judge recognises the usual wrong answers: right values in the wrong
order, a transposed shape, row-major strides for a tensor that was permuted, a value predicted
where torch raises (and the reverse), an answer of another kind than torch gives (a tensor where
torch gives a list), an answer in another unit than the question's, the drill's own likely
mistakes (its ``wrong`` entries, computed beside the truth), and names the failure category for
the targeted hint. Feedback speaks of values as torch prints them, never of the reader's types.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Any

from tutor.content.units import canonical
from tutor.content.wording import listed, plural
from tutor.grading.answers import (
    ODD_COMMA,
    THOUSANDS,
    AnswerError,
    ExcName,
    Measured,
    Seq,
    TensorLit,
    Word,
    clean,
    odd_comma,
    parse_answer,
)
from tutor.grading.grade import Judgement
from tutor.grading.hints import exception_category
from tutor.grading.matching import close, dtype_of, equal, flat, shape_of
from tutor.grading.spoken import mismatch, said
from tutor.grading.truth import Tagged, number, show
from tutor.probes.data_grading import Context

_GENERIC_RAISE = {"error", "exception", "raises", "raise", "it raises", "throws", "fails", "crash"}


def row_major(shape: list[int]) -> list[int]:
    """The strides of a contiguous tensor of ``shape``."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return strides[::-1]


def _ints(items: list[Tagged]) -> list[int] | None:
    vals = [number(i.get("value")) for i in items]
    return (
        [v for v in vals if isinstance(v, int)] if all(isinstance(v, int) for v in vals) else None
    )


def _swapped(a: list[Any], b: list[Any]) -> bool:
    """True if ``a`` is ``b`` reversed or with exactly two entries exchanged."""
    if a == b[::-1]:
        return True
    diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diffs) == 2 and a[diffs[0]] == b[diffs[1]] and a[diffs[1]] == b[diffs[0]]


def _broadcasts(a: list[int], b: list[int]) -> bool:
    return all(x == y or 1 in (x, y) for x, y in zip(a[::-1], b[::-1], strict=False))


def _entries_wrong(wrong: list[int], n: int) -> tuple[str, str]:
    """Which entries of an answer of ``n`` entries differ, and the hint's category: 'Entry 2
    (counting from 0) is wrong.', 'Entries 0 and 2 ... are wrong.' (``values``: work out the
    entries named), or 'Every entry is wrong.' (``value``: redo the whole computation)."""
    if len(wrong) == n and n > 1:
        return "Every entry is wrong.", "value"
    if len(wrong) == 1:
        return f"Entry {wrong[0]} (counting from 0) is wrong.", "values"
    return f"Entries {listed([str(i) for i in wrong])} (counting from 0) are wrong.", "values"


def _seq_feedback(truth: Tagged, answer: Any, context: Context | None) -> tuple[str, str]:
    want = _ints(truth["items"])
    got = list(answer) if isinstance(answer, list) else None
    numbers = got is not None and all(isinstance(g, int | float) for g in got)
    if want is not None and got is not None and numbers and len(got) == len(want):
        strided = context is not None and context.stride == want and not context.contiguous
        if context is not None and strided and got == row_major(context.shape):
            shape = tuple(context.shape)
            msg = (
                f"Those are the row-major strides of a contiguous tensor of shape {shape}, "
                "but this tensor is a view with permuted strides."
            )
            return msg, "row_major_strides"
        if sorted(got) == sorted(want):
            is_shape = truth["type"] == "size" or (context is not None and context.shape == want)
            if is_shape and _swapped(got, want):
                return "The sizes are right but the dimensions are swapped.", "transposed_shape"
            return "The right numbers, in the wrong order.", "wrong_order"
        wrong = [i for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w]
        return _entries_wrong(wrong, len(want))
    if got is not None and numbers and len(got) == len(truth["items"]):  # floats: entry by entry
        items = truth["items"]
        wrong = [i for i, (t, g) in enumerate(zip(items, got, strict=True)) if equal(t, g, 1e-4)]
        if wrong:
            return _entries_wrong(wrong, len(items))
    if got is not None and len(got) != len(truth["items"]):
        n = len(truth["items"])
        return (
            f"Your answer has {plural(len(got), 'entry', 'entries')}; the result has {n}.",
            "shape",
        )
    # no entry is named here: the hint must not point at one
    return f"Not {said(answer)}.", "value" if got is not None else "type"


def _tensor_feedback(truth: Tagged, answer: Any) -> tuple[str, str]:
    values = answer.values if isinstance(answer, TensorLit) else answer
    if isinstance(answer, TensorLit) and answer.dtype and dtype_of(answer.dtype) != truth["dtype"]:
        return f"The dtype is not torch.{dtype_of(answer.dtype)}.", "dtype_promotion"
    if isinstance(answer, TensorLit) and answer.requires_grad not in (
        None,
        truth.get("requires_grad"),
    ):
        state = "requires" if truth.get("requires_grad") else "does not require"
        return f"The values may be right, but the result {state} grad.", "requires_grad"
    shape = shape_of(values) if isinstance(values, list | int | float) else None
    want = truth["shape"]
    if shape is None:
        return "Write the tensor's values as nested lists, e.g. [[1, 2], [3, 4]].", "type"
    if isinstance(values, list) and flat(values) == want and shape != want:
        return "That is the tensor's shape; the expression gives the tensor itself.", "type"
    if shape != want:
        tvals = truth.get("values")
        if len(want) == 2 and shape == want[::-1] and tvals is not None:
            transposed = [list(r) for r in zip(*tvals, strict=True)]
            if equal({**truth, "shape": shape, "values": transposed}, values, 1e-4) is None:
                return "That is the transpose of the result.", "transposed_shape"
        if shape and len(shape) <= len(want) and _broadcasts(shape, want):
            return (f"Your answer has shape {tuple(shape)} but the result has shape "
                    f"{tuple(want)}: broadcasting stretches size-1 dimensions.",
                    "broadcasting")  # fmt: skip
        return f"Your answer has shape {tuple(shape)}; the result has shape {tuple(want)}.", "shape"
    tvals = flat(truth.get("values") or [])
    avals = flat(values)
    try:
        same = sorted(map(float, avals)) == sorted(map(float, map(number, tvals)))
    except (TypeError, ValueError):
        same = False
    if tvals and same:
        return "The right values, in the wrong order.", "wrong_order"
    for i, (t, a) in enumerate(zip(tvals, avals, strict=True)):
        if equal({"type": "float", "value": t}, a, 1e-4):
            index = _unravel(i, want)
            return f"The shape is right; the first wrong element is at index {index}.", "values"
    return "The values differ.", "value"


def _unravel(i: int, shape: list[int]) -> list[int]:
    index = []
    for n in reversed(shape):
        index.append(i % n)
        i //= n
    return index[::-1]


def _says_it_raises(answer: Any) -> bool:
    """Whether a bare word reads as "it raises": ``error``, or a misspelt exception name."""
    if not isinstance(answer, Word):
        return False
    text = answer.text.lower()
    return text in _GENERIC_RAISE or text.endswith(("error", "err", "exception"))


def _other_exception(name: str, said: str, category: str | None) -> tuple[str, str]:
    """Feedback for a wrong exception name that never spells out the right one."""
    if SequenceMatcher(None, name.lower(), said.lower()).ratio() >= 0.8:
        return (
            f"Close, but not {said}: check the spelling of the exception's name.",
            "exception_spelling",
        )
    return f"Torch raises a different exception here, not {said}.", category or "wrong_exception"


def _lenient(truth: Tagged, answer: Any) -> str:
    """The note a correct answer gets when it was accepted in a looser form than torch's."""
    kind = truth["type"]
    if kind == "size" and not isinstance(answer, list):
        return " (torch gives a torch.Size; one number is accepted for a one-element size.)"
    if kind == "tuple" and isinstance(answer, Seq) and answer.kind == "list":
        return " (torch gives a tuple; a list with the same items is accepted.)"
    if kind == "bool" and isinstance(answer, Word):
        return f" ({answer.text} is read as {truth['value']}.)"
    return ""


def explain(truth: Tagged, answer: Any, context: Context | None) -> tuple[str, str]:
    """Feedback and failure category for an answer known to be wrong."""
    kind = truth["type"]
    if kind == "exception":
        category = exception_category(truth.get("message", ""))
        if isinstance(answer, ExcName):
            return _other_exception(truth["name"], answer.name, category)
        if isinstance(answer, Word) and answer.text.lower() in _GENERIC_RAISE:
            return "Yes, it raises, but which exception? Name its type.", "exception_unnamed"
        return (
            "This does not return a value: torch raises an exception.",
            category or "missed_raise",
        )
    if isinstance(answer, ExcName) or _says_it_raises(answer):
        return "No exception here: torch returns a value.", "predicted_raise"
    other = mismatch(truth, answer)
    if other:
        return other, "type"
    if kind in ("size", "tuple", "list"):
        return _seq_feedback(truth, answer, context)
    if kind == "tensor":
        return _tensor_feedback(truth, answer)
    if kind == "dtype":
        return f"Not {said(answer)}.", "dtype"
    if kind == "device":
        return f"Not {said(answer)}.", "device_mismatch"
    if kind == "bool":
        return f"Not {said(answer)}.", "bool"
    if kind == "none" or answer is None:
        return f"Not {said(answer)}.", "type"
    return f"Not {said(answer)}.", "value"


def _one_number(truth: Tagged) -> bool:
    """Whether the truth is one number, so that a comma inside digits is a separator."""
    return truth["type"] in ("int", "float") or (truth["type"] == "tensor" and not truth["shape"])


def read(truth: Tagged, text: str) -> Any:
    """The typed ``text`` read for this truth (AnswerError when it cannot be): thousands
    separators inside one number (``99,840.0``) where the truth is one number."""
    plain = clean(text)
    if _one_number(truth):
        if THOUSANDS.fullmatch(plain):
            return parse_answer(plain.replace(",", ""))  # 470,292 as the lessons print it
        if ODD_COMMA.fullmatch(plain):
            raise odd_comma(plain)
    return parse_answer(text)


def _unit_reason(answer: Measured, unit: str | None) -> str | None:
    """Why an answer with a word after its number is wrong for its unit (None: read the
    number): a known unit other than the question's."""
    written = canonical(answer.word)
    if written is None or unit is None or written == unit:
        return None
    return f"Your answer is in {written}; the question asks for {unit}."


def _rounding_note(truth: Tagged, answer: Any, tolerance: float) -> str:
    """A note for a float truth that only the absolute tolerance matched (round-off of 0)."""
    if truth["type"] != "float" or isinstance(answer, bool) or not isinstance(answer, int | float):
        return ""
    value = number(truth["value"])
    if not isinstance(value, float) or close(value, answer, tolerance):
        return ""
    return f" (torch gives {show(truth)}, the same up to float round-off.)"


def judge_predict(
    truth: Tagged,
    context: Context | None,
    text: str,
    tolerance: float,
    lenient: bool = True,
    *,
    atol: float = 0.0,
    unit: str | None = None,
    known: Sequence[tuple[Tagged, str]] = (),
) -> Judgement:
    """Grade the typed ``text`` against the truth torch produced. With ``lenient`` a looser form
    than torch's own is accepted and the feedback says so; without it, it is wrong. ``atol`` is
    the absolute tolerance of floats, ``unit`` the canonical unit the question asks in (an answer
    in another known unit is wrong, with that reason), ``known`` the drill's likely mistakes as
    (value torch computed for it, feedback): an answer that matches one gets its feedback."""
    expected = show(truth)
    try:
        answer = read(truth, text)
    except AnswerError as exc:
        return Judgement("invalid", f"Could not read your answer: {exc}.", expected)
    if isinstance(answer, Measured):
        if truth["type"] == "str":
            answer = Word(clean(text))
        else:
            reason = _unit_reason(answer, unit)
            if reason:
                return Judgement("wrong", reason, expected, "unit")
            answer = answer.value
    if equal(truth, answer, tolerance, atol) is None:
        note = _lenient(truth, answer)
        if note and not lenient:
            msg = ("The right value, but not in the form torch gives it, and this drill asks for "
                   "that form exactly: which type does torch return here?")  # fmt: skip
            return Judgement("wrong", msg, expected, "type")
        return Judgement("correct", "Correct." + (note or _rounding_note(truth, answer, tolerance)),
                         expected)  # fmt: skip
    feedback, category = explain(truth, answer, context)
    for value, mistake in known:
        if mistake and equal(value, answer, tolerance, atol) is None:
            return Judgement("wrong", f"{feedback} {mistake}", expected, "mistake")
    return Judgement("wrong", feedback, expected, category)
