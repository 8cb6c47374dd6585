"""Predict feedback in torch's language: a learner's answer as torch would print it, and what
kind of value torch gives when the answer is of another kind (torch-free).

The reader (``tutor.grading.answers``) turns typed text into its own small types; none of them
may reach a learner by name. ``said`` prints an answer back as Python and torch print values
(``tensor([17.])``, ``torch.Size([2, 3])``, ``device(type='cpu')``), and ``mismatch`` says
"torch gives a list here, not a tensor" without naming the value torch gives.
"""

from __future__ import annotations

from typing import Any

from tutor.grading.answers import Device, ExcName, Measured, Seq, TensorLit, Word
from tutor.grading.truth import Tagged

#: what torch gives, by the truth's tag
_GIVES = {
    "size": "a torch.Size",
    "tuple": "a tuple",
    "list": "a list",
    "int": "a Python int",
    "float": "a Python float",
    "bool": "a bool (True or False)",
    "str": "a string",
    "dtype": "a dtype",
    "device": "a device",
    "tensor": "a tensor",
    "dict": "a dict",
}


def said(answer: Any) -> str:
    """The answer as Python or torch would print it (never a reader type's own repr)."""
    if isinstance(answer, Word):
        return answer.text
    if isinstance(answer, ExcName):
        return answer.name
    if isinstance(answer, Measured):
        return f"{said(answer.value)} {answer.word}"
    if isinstance(answer, TensorLit):
        extras = [f"dtype=torch.{str(answer.dtype).removeprefix('torch.')}"] if answer.dtype else []
        if answer.requires_grad is not None:
            extras.append(f"requires_grad={answer.requires_grad}")
        return f"tensor({', '.join([said(answer.values), *extras])})"
    if isinstance(answer, Device):
        index = f", index={answer.index}" if answer.index is not None else ""
        return f"device(type='{answer.type}'{index})"
    if isinstance(answer, Seq) and answer.kind == "size":
        return f"torch.Size([{', '.join(said(a) for a in answer)}])"
    if isinstance(answer, Seq) and answer.kind == "tuple":
        items = [said(a) for a in answer]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(answer, list):
        return f"[{', '.join(said(a) for a in answer)}]"
    if isinstance(answer, dict):
        return "{" + ", ".join(f"{said(k)}: {said(v)}" for k, v in answer.items()) + "}"
    return repr(answer)


def _kind(answer: Any) -> str | None:
    """What kind of value the answer is, in words (None: a word, read by the truth)."""
    if isinstance(answer, TensorLit):
        return "a tensor"
    if isinstance(answer, Seq) and answer.kind == "size":
        return "a torch.Size"
    if isinstance(answer, list):
        return "several values"
    if isinstance(answer, dict):
        return "a dict"
    if isinstance(answer, Device):
        return "a device"
    if isinstance(answer, bool):
        return "a bool"
    if isinstance(answer, int | float | complex):
        return "a number"
    if isinstance(answer, str):
        return "a string"
    return None


def mismatch(truth: Tagged, answer: Any) -> str | None:
    """ "Torch gives a list here, not a tensor" when the answer is plainly of another kind than
    the truth (the value torch gives is not named), else None."""
    kind, gives = truth["type"], _GIVES.get(truth["type"])
    got = _kind(answer)
    if gives is None or got is None:
        return None
    sequence = kind in ("size", "tuple", "list")
    scalar = kind in ("int", "float", "bool", "str", "dtype", "device")
    plain = (
        (got == "a tensor" and kind != "tensor")
        or (got in ("several values", "a torch.Size") and scalar)
        or (got == "a dict") != (kind == "dict")
        or (got == "a device" and kind != "device")
        or (got == "a number" and kind in ("dtype", "device", "str"))
        or (got == "a string" and (sequence or kind in ("int", "float", "tensor")))
    )
    return f"Torch gives {gives} here, not {got}." if plain else None
