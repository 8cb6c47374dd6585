"""The judge's resolver: dotted names looked up in the judge's real torch (runtime side only).

It reads, never runs: a module's attributes come from its ``__dict__`` (a submodule not yet
imported is found with ``importlib.util.find_spec``, which imports nothing new; a name only a
module's ``__getattr__`` would make is UNKNOWN), a class's through ``inspect.getattr_static``
(no descriptor or property runs). Nothing of the answer is imported: a module the judge has not
imported is known by its spec alone, and what is inside it is UNKNOWN.

A chain that leaves torch is named by where it lands: a module by its ``__name__``
(``torch.storage.np`` -> ``numpy``, ``torch.os`` -> ``os``), and a class or function reached
through torch but defined elsewhere by its own module and qualified name.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from types import ModuleType
from typing import Any

import torch

from tutor.probes.reading_resolve import Found, Kind

_MISSING = object()
_UNKNOWN = object()


def _spec_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError, AttributeError):
        return False


def _child(obj: ModuleType, part: str) -> Any:
    """A module's attribute ``part`` without running anything: its dict, an imported
    submodule, a submodule found by its spec (returned as its name), or UNKNOWN/MISSING."""
    d = vars(obj)
    if part in d:
        return d[part]
    full = f"{obj.__name__}.{part}"
    if full in sys.modules:
        return sys.modules[full]
    if hasattr(obj, "__path__") and _spec_exists(full):  # the parent is imported: imports nothing
        return full
    return _UNKNOWN if "__getattr__" in d else _MISSING


def _attribute(obj: Any, part: str) -> Any:
    try:
        value = inspect.getattr_static(obj, part)
    except AttributeError:
        return _MISSING
    if isinstance(value, staticmethod | classmethod):
        return value.__func__
    return value


def _outside_name(obj: Any) -> str | None:
    """``module.qualname`` of a class or function defined outside torch (None: inside it, or
    not reachable by that name)."""
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or module.startswith("torch"):
        return None
    home: Any = sys.modules.get(module)
    for part in qualname.split("."):
        home = _attribute(home, part) if home is not None else None
    return f"{module}.{qualname}" if home is obj else None


def _tensor_class(cls: type) -> bool:
    try:
        return issubclass(cls, torch.Tensor)
    except TypeError:
        return False


def _kind(obj: Any) -> Kind:
    if isinstance(obj, ModuleType):
        return Kind.MODULE
    if isinstance(obj, type):
        return Kind.CLASS
    return Kind.CALLABLE if callable(obj) else Kind.VALUE


class TorchResolver:
    """Resolves dotted names against the judge's imported modules (torch among them)."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[Any, Found]] = {}

    def _walk(self, dotted: str) -> tuple[Any, Found]:
        cached = self._cache.get(dotted)
        if cached is not None:
            return cached
        parts = dotted.split(".")
        obj: Any = sys.modules.get(parts[0], _MISSING)
        if obj is _MISSING:
            obj = parts[0] if _spec_exists(parts[0]) else _MISSING
        name = parts[0]
        for i, part in enumerate(parts[1:], 1):
            if obj is _MISSING or obj is _UNKNOWN or isinstance(obj, str):
                # nothing, or a module known by its spec alone (not imported): inside, unknown
                obj = _MISSING if obj is _MISSING else _UNKNOWN
                name = ".".join([name, *parts[i:]])
                break
            obj = _child(obj, part) if isinstance(obj, ModuleType) else _attribute(obj, part)
            name = f"{name}.{part}"
            if isinstance(obj, ModuleType):
                name = obj.__name__
            elif name.startswith("torch") and (isinstance(obj, type) or inspect.isroutine(obj)):
                name = _outside_name(obj) or name
        if obj is _MISSING:
            found = Found(Kind.MISSING, name)
        elif obj is _UNKNOWN:
            found = Found(Kind.UNKNOWN, name)
        elif isinstance(obj, str):
            found = Found(Kind.MODULE, obj)
        else:
            tensor = _tensor_class(obj) if isinstance(obj, type) else None
            found = Found(_kind(obj), name, tensor)
        self._cache[dotted] = (obj, found)
        return obj, found

    def find(self, dotted: str) -> Found:
        """What ``dotted`` refers to in the judge's modules."""
        return self._walk(dotted)[1]

    def tensor_attribute(self, name: str) -> bool | None:
        """Whether ``torch.Tensor`` (or a base of it) has an attribute ``name``."""
        return any(name in vars(c) for c in torch.Tensor.__mro__)

    def same(self, a: str, b: str) -> bool:
        """Whether two dotted names are the same object (both found)."""
        x, y = self._walk(a)[0], self._walk(b)[0]
        if x is _MISSING or x is _UNKNOWN or isinstance(x, str):
            return False
        return x is y
