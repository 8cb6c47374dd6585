"""Runtime side of ``forbid``: trace every torch call the learner's code makes.

The reading (``tutor.probes.reading``) proves from the code's text what it may not do; this
trace is a second net that records what it *does*, and can only add refusals.
A :class:`~torch.overrides.TorchFunctionMode` sees every torch function, tensor method and
``torch.nn.functional`` call made while it is active.

With an ``allow`` list the trace also records every call the list does not permit, named with
the line of the answer it came from (``"Tensor.sum (line 3)"``). Only calls made by the
answer's own code count: the innermost drill code on the stack must be the answer (the
grader's own calls, and a ``setup`` function's, are not the answer's). Always permitted: Python
operators (whose tensor methods, ``add``, ``mul``, ``lt``, ... they reach), indexing and every
other dunder method but iteration, the attributes ``shape``, ``dtype``, ``device`` and
``ndim``, and whatever runs inside a function the drill's ``setup`` defined.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from types import FrameType, ModuleType
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

from tutor.probes.data_grading import METHODS_INTO


def _lookup(dotted: str) -> Any | None:
    """The object a dotted name such as ``torch.outer`` or ``torch.nn.functional.relu`` names."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def resolve_forbidden(names: list[str]) -> dict[int, str]:
    """Map ``id(callable)`` -> forbidden name, for dotted names under ``torch``.

    A function of the ``torch`` namespace forbids the tensor method of the same name too
    (``torch.outer`` also forbids ``a.outer(b)``); a namespace forbids its functions and the
    tensor methods that enter it (``torch.autograd``: ``x.backward()``).
    """
    table: dict[int, str] = {}
    for name in names:
        if not name.startswith("torch.") or "." not in name:
            continue
        obj = _lookup(name)
        if obj is None:
            continue
        table[id(obj)] = name
        if isinstance(obj, ModuleType):
            for value in vars(obj).values():
                if inspect.isfunction(value) or inspect.isbuiltin(value):
                    table.setdefault(id(value), name)
        for method in METHODS_INTO.get(name, ()):
            table[id(getattr(torch.Tensor, method))] = name
        head, _, last = name.rpartition(".")
        if head == "torch":
            same = getattr(torch.Tensor, last, None)
            if same is not None:
                table[id(same)] = name
    return table


#: tensor methods that Python operators reach (``a + b`` arrives as ``add``): always permitted
OPERATOR_METHODS = (
    "add", "sub", "mul", "div", "remainder", "pow", "matmul", "neg", "positive", "abs",
    "bitwise_and", "bitwise_or", "bitwise_xor", "eq", "ne", "lt", "le", "gt", "ge",
    "floor_divide",
)  # fmt: skip
ALWAYS_ATTRIBUTES = ("shape", "dtype", "device", "ndim")


def resolve_allowed(names: list[str]) -> set[int]:
    """The ids of every callable ``allow`` permits, the always-permitted ones included."""
    ids: set[int] = set()
    for name in names:
        if name != "torch" and not name.startswith("torch."):
            continue  # a builtin by its bare name (`len`): the reading's to check, never traced
        obj = _lookup(name)
        if obj is None:
            continue
        ids.add(id(obj))
        if isinstance(obj, ModuleType):
            ids |= {id(v) for v in vars(obj).values() if callable(v)}
        head, _, last = name.rpartition(".")
        if head == "torch" and hasattr(torch.Tensor, last):
            ids.add(id(getattr(torch.Tensor, last)))
    for method in OPERATOR_METHODS:
        for name in (method, method + "_"):
            if hasattr(torch.Tensor, name):
                ids.add(id(getattr(torch.Tensor, name)))
    for attr in dir(torch.Tensor):
        value = getattr(torch.Tensor, attr, None)
        if attr.startswith("__") and attr.endswith("__") and attr != "__iter__" and callable(value):
            ids.add(id(value))
    ids |= {id(getattr(torch.Tensor, a)) for a in ALWAYS_ATTRIBUTES}
    return ids


def call_name(func: Any) -> str:
    """How a traced callable is named to the learner: ``torch.sum``, ``Tensor.sum``, ..."""
    owner: Any = getattr(func, "__self__", None)
    if type(owner).__name__ == "getset_descriptor":
        return f"Tensor.{owner.__name__}"
    name = getattr(func, "__name__", repr(func))
    if getattr(torch.Tensor, name, None) is func:
        return f"Tensor.{name}"
    for module in ("torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft"):
        if getattr(sys.modules.get(module), name, None) is func:
            return f"{module}.{name}"
    return f"{getattr(func, '__module__', None) or 'torch'}.{name}"


def _caller() -> tuple[str, int]:
    """The file (``<answer>``, ``<setup>``, or ``""`` for neither) and line of the drill code
    that made the call being traced: the innermost frame of either."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename in ("<answer>", "<setup>"):
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return "", 0


class ForbidTrace(TorchFunctionMode):
    """While active, records (in ``used``) each forbidden torch callable that is called, and
    with ``allow`` each call it does not permit (with the answer's line)."""

    def __init__(self, names: list[str], allow: list[str] | None = None) -> None:
        super().__init__()
        self._table = resolve_forbidden(names)
        self._allowed = resolve_allowed(allow) if allow else None
        self.used: list[str] = []

    def __enter__(self) -> ForbidTrace:
        if self._table or self._allowed is not None:  # else stay out of the way (it costs)
            super().__enter__()  # type: ignore[no-untyped-call]
        return self

    def __exit__(self, *exc: object) -> None:
        if self._table or self._allowed is not None:
            super().__exit__(*exc)  # type: ignore[no-untyped-call]

    def _note(self, name: str) -> None:
        if name not in self.used:
            self.used.append(name)

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        owner = getattr(func, "__self__", None)
        name = self._table.get(id(func))
        if name is None:
            # properties and slot wrappers arrive as their __get__/__set__ functions
            name = self._table.get(id(owner))
        if name is not None:
            self._note(name)
        allowed = self._allowed
        if type(owner).__name__ != "getset_descriptor":
            owner = None  # only a property is named by its owner; None is never in the table
        if allowed is not None and id(func) not in allowed and id(owner) not in allowed:
            where, line = _caller()
            if where == "<answer>":
                self._note(f"{call_name(func)} (line {line})")
        return func(*args, **(kwargs or {}))
