"""What `tutor pack check` proves about a predict drill's truths, beyond running them
(torch-free): each likely mistake (a ``wrong`` entry) differs from the truth on every variant,
and no float truth sits inside the default absolute tolerance without the drill saying so.

A mistake whose value a right answer also matches would tell a learner who is right that they
made that mistake, so it is an error. A truth such as ``-7.45e-09`` (float round-off of 0) is
accepted as ``0`` by the default ``atol``; that is usually what the author means, but a drill
whose point is a tiny value must say ``atol: 0``, so the default is a warning until the drill
names its ``atol``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from tutor.content.models import ATOL, PredictDrill
from tutor.grading.answers import Approx, Device, ExcName, Seq, TensorLit, Word
from tutor.grading.matching import equal, flat
from tutor.grading.truth import Tagged, number, show

#: (path inside the drill, message, severity, line inside the code or None)
Found = tuple[tuple[str | int, ...], str, str, int | None]


def as_answer(value: Tagged) -> Any:
    """A tagged value as the reader would give it back had a learner typed it exactly."""
    kind = value.get("type")
    if kind in ("int", "bool", "str"):
        return value["value"]
    if kind == "float":
        return Approx(float(number(value["value"])))
    if kind == "none":
        return None
    if kind in ("size", "tuple", "list"):
        seq = Seq(as_answer(i) for i in value["items"])
        seq.kind = kind
        return seq
    if kind == "dtype":
        return Word(f"torch.{value['name']}")
    if kind == "device":
        name, _, index = str(value["name"]).partition(":")
        return Device(name, int(index) if index.isdigit() else None)
    if kind == "tensor":
        return TensorLit(value.get("values"), value.get("dtype"))
    if kind == "dict":
        return {number(k.get("value")): as_answer(v) for k, v in value["items"]}
    if kind == "exception":
        return ExcName(value["name"])
    return Word(str(value.get("repr", "")))


def ambiguous(truth: Tagged, mistake: Tagged, tolerance: float, atol: float) -> bool:
    """Whether an answer could match both the truth and a mistake's value."""
    if (truth.get("type") == "tensor" and truth.get("values") is None) or (
        mistake.get("type") == "tensor" and mistake.get("values") is None
    ):
        return False
    return (
        equal(truth, as_answer(mistake), tolerance, atol) is None
        or equal(mistake, as_answer(truth), tolerance, atol) is None
    )


def _floats(value: Tagged) -> Iterator[float]:
    """Every float a tagged value holds (items, tensor values, dict values)."""
    kind = value.get("type")
    if kind == "float":
        yield float(number(value["value"]))
    elif kind in ("size", "tuple", "list"):
        for item in value["items"]:
            yield from _floats(item)
    elif kind == "dict":
        for _, item in value["items"]:
            yield from _floats(item)
    elif kind == "tensor" and str(value.get("dtype", "")).startswith(("float", "bfloat")):
        for v in flat(value.get("values") or []):
            yield float(number(v))


def truth_problems(drill: PredictDrill, data: dict[str, Any], where: str) -> list[Found]:
    """The problems of one variant's truth and mistakes (``data`` is a ``PredictValue``,
    dumped), ``where`` naming the variant (``seed 5 (a=5)``)."""
    found: list[Found] = []
    truth = data["value"]
    tiny = [v for v in _floats(truth) if math.isfinite(v) and 0 < abs(v) <= ATOL]
    if tiny and "atol" not in drill.model_fields_set:
        found.append(((), f"the truth {show(truth)} on {where} is within the default `atol` "
                      f"({ATOL:g}) of 0, so an answer of 0 is right too: say so with `atol: "
                      f"{ATOL:g}`, or `atol: 0` when the tiny value is the point", "warning",
                      None))  # fmt: skip
    for j, mistake in enumerate(data.get("wrong") or []):
        path: tuple[str | int, ...] = ("wrong", j, "ask")
        if mistake["outcome"] == "authoring":
            err = mistake["error"]
            found.append((path, f"{err['type']}: {err['message']} on {where} (an authoring "
                          "error: this mistake has no value)", "error", err.get("line")))  # fmt: skip
        elif ambiguous(truth, mistake["value"], drill.tolerance, drill.atol):
            found.append((path, f"this mistake gives {show(mistake['value'])} on {where}, which "
                          "a right answer matches too: a learner who is right would be told of "
                          "this mistake; make it differ from the truth on every variant (or "
                          "drop it)", "error", None))  # fmt: skip
    return found
