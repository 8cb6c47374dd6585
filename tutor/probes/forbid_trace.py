"""Runtime side of ``forbid``: trace every torch call the learner's code makes.

The AST pass (``tutor.grading.forbid``) catches what the code *says*; this trace catches what it
*does*, so ``getattr(torch, "out" + "er")`` or a method call ``a.outer(b)`` is refused too.
A :class:`~torch.overrides.TorchFunctionMode` sees every torch function, tensor method and
``torch.nn.functional`` call made while it is active.
"""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
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
            method = getattr(torch.Tensor, last, None)
            if method is not None:
                table[id(method)] = name
    return table


class ForbidTrace(TorchFunctionMode):
    """While active, records (in ``used``) each forbidden torch callable that is called."""

    def __init__(self, names: list[str]) -> None:
        super().__init__()
        self._table = resolve_forbidden(names)
        self.used: list[str] = []

    def __enter__(self) -> ForbidTrace:
        if self._table:  # nothing to watch: stay out of the way (the mode costs per call)
            super().__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._table:
            super().__exit__(*exc)

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
        name = self._table.get(id(func))
        if name is None:
            # properties and slot wrappers arrive as their __get__/__set__ functions
            name = self._table.get(id(getattr(func, "__self__", None)))
        if name is not None and name not in self.used:
            self.used.append(name)
        return func(*args, **(kwargs or {}))
