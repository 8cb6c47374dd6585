"""Does a parsed predict answer equal the truth? Torch-free; interprets the answer by the truth.

``equal(truth, answer, tolerance)`` returns None when they agree, else a short reason. Answers
are read generously: a tuple, list, ``torch.Size`` or bare ``1, 2`` are the same sequence; an int
equals the float with the same value; ``float32``/``torch.float32``/``torch.float`` are one
dtype; ``yes``/``no`` answer a boolean; floats agree within the drill's relative tolerance, within
its absolute tolerance ``atol`` (which makes ``0`` right for a truth that is float round-off of
0), or within half a unit of the last digit the learner typed (when they typed at least three
significant digits).
"""

from __future__ import annotations

import math
from typing import Any

from tutor.grading.answers import Approx, Device, ExcName, Seq, TensorLit, Word
from tutor.grading.truth import Tagged, number

DTYPE_ALIASES = {
    "float": "float32", "double": "float64", "half": "float16", "long": "int64",
    "int": "int32", "short": "int16", "cfloat": "complex64", "cdouble": "complex128",
    "chalf": "complex32", "bool": "bool", "byte": "uint8", "char": "int8",
}  # fmt: skip


YES_NO = {"yes": True, "no": False}


def dtype_of(answer: Any) -> str | None:
    """The canonical dtype name an answer names (``torch.float`` -> ``float32``), if any."""
    if isinstance(answer, Word | str):
        text = answer.text if isinstance(answer, Word) else answer
        name = text.strip().removeprefix("torch.").lower()
        return DTYPE_ALIASES.get(name, name)
    return None


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def close(truth: float, answer: float, tolerance: float, atol: float = 0.0) -> bool:
    """Float agreement: relative tolerance, absolute tolerance, or the rounding the learner
    visibly did."""
    slack = answer.slack if isinstance(answer, Approx) else 0.0
    truth, answer = float(truth), float(answer)
    if math.isnan(truth) or math.isnan(answer):
        return math.isnan(truth) and math.isnan(answer)
    if math.isinf(truth) or math.isinf(answer):
        return truth == answer
    allowed = max(tolerance * abs(truth), atol, 1e-12, slack * 1.000001)
    return abs(truth - answer) <= allowed


def _number(
    truth: Any, answer: Any, tolerance: float, as_float: bool, atol: float = 0.0
) -> str | None:
    truth = number(truth)
    if isinstance(truth, bool):
        return None if answer is truth else f"expected {truth}"
    if not _is_number(answer):
        return "expected a number"
    if not as_float and isinstance(truth, int):
        return None if answer == truth else f"{answer} is not {truth}"
    return None if close(truth, answer, tolerance, atol) else f"{answer} is not close to {truth}"


def shape_of(values: Any) -> list[int] | None:
    """Shape of nested lists (None when ragged)."""
    if not isinstance(values, list):
        return []
    if not values:
        return [0]
    inner = [shape_of(v) for v in values]
    first = inner[0]
    if first is None or any(s != first for s in inner):
        return None
    return [len(values), *first]


def flat(values: Any) -> list[Any]:
    """Nested lists flattened, row-major."""
    if isinstance(values, list):
        return [x for v in values for x in flat(v)]
    return [values]


def _tensor(truth: Tagged, answer: Any, tolerance: float, atol: float) -> str | None:
    if isinstance(answer, TensorLit):
        if answer.dtype is not None and dtype_of(answer.dtype) != truth["dtype"]:
            return f"dtype torch.{dtype_of(answer.dtype)} is not torch.{truth['dtype']}"
        if answer.requires_grad is not None and answer.requires_grad != truth.get("requires_grad"):
            return "requires_grad differs"
        values = answer.values
    elif isinstance(answer, list) or _is_number(answer):
        values = answer
    else:
        return "expected a tensor (its values as nested lists)"
    shape = shape_of(values)
    if shape is None:
        return "the nested lists are ragged; rows must all have the same length"
    if shape != truth["shape"] and not (truth["shape"] == [] and shape == [1]):
        return f"shape {tuple(shape)} is not {tuple(truth['shape'])}"
    if truth.get("values") is None:
        return None
    is_float = truth["dtype"].startswith(("float", "bfloat", "complex"))
    for t, a in zip(flat(truth["values"]), flat(values), strict=True):
        why = _number(t, a, tolerance, is_float, atol)
        if why:
            return "the values differ"
    return None


def _device(truth: str, answer: Any) -> str | None:
    if isinstance(answer, Word | str):
        text = answer.text if isinstance(answer, Word) else answer
        kind, _, idx = text.strip().partition(":")
        answer = Device(kind, int(idx) if idx.isdigit() else None)
    if not isinstance(answer, Device):
        return "expected a device"
    kind, _, idx = truth.partition(":")
    if answer.type != kind:
        return f"device {answer.type} is not {kind}"
    if idx and answer.index is not None and str(answer.index) != idx:
        return f"device index {answer.index} is not {idx}"
    return None


def equal(truth: Tagged, answer: Any, tolerance: float, atol: float = 0.0) -> str | None:
    """None when ``answer`` (from ``parse_answer``) agrees with ``truth``, else a reason;
    ``tolerance`` is relative and ``atol`` absolute (floats only)."""
    kind = truth["type"]
    if kind == "exception":
        if isinstance(answer, ExcName):
            return None if answer.name.lower() == truth["name"].lower() else "another exception"
        return "torch raises here"
    if isinstance(answer, ExcName):
        return "torch does not raise here"
    if kind in ("size", "tuple", "list"):
        items = truth["items"]
        if _is_number(answer) and len(items) == 1:
            answer = [answer]
        if not isinstance(answer, list):
            return "expected a sequence such as (2, 3)"
        if len(answer) != len(items):
            return f"{len(answer)} items, expected {len(items)}"
        for t, a in zip(items, answer, strict=True):
            if equal(t, a, tolerance, atol):
                return "an item differs"
        return None
    if kind in ("int", "float"):
        return _number(truth["value"], answer, tolerance, kind == "float", atol)
    if kind == "bool":
        if isinstance(answer, Word) and answer.text.lower() in YES_NO:
            answer = YES_NO[answer.text.lower()]
        return None if answer is truth["value"] else f"expected {truth['value']}"
    if kind == "none":
        return None if answer is None else "expected None"
    if kind == "str":
        text = answer.text if isinstance(answer, Word) else answer
        return None if isinstance(text, str) and text == truth["value"] else "another string"
    if kind == "dtype":
        name = dtype_of(answer)
        return None if name == truth["name"] else "another dtype"
    if kind == "device":
        return _device(truth["name"], answer)
    if kind == "tensor":
        return _tensor(truth, answer, tolerance, atol)
    if kind == "dict":
        if not isinstance(answer, dict) or len(answer) != len(truth["items"]):
            return "expected a dict"
        for k, v in truth["items"]:
            key = number(k.get("value"))
            if key not in answer or equal(v, answer[key], tolerance, atol):
                return "an entry differs"
        return None
    text = answer.text if isinstance(answer, Word) else str(answer)
    return None if text.strip() == str(truth.get("repr", "")).strip() else "another value"


def is_seq(answer: Any) -> bool:
    """True for any sequence answer (tuple, list, Size, bare)."""
    return isinstance(answer, Seq | list)
