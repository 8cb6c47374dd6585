"""Runtime side: Python/torch values to the wire data of ``data_grading`` and back.

``to_wire`` runs in the learner's process (and in the judge's, for the arguments the ``assert``
stage passes to the learner's objects). Only plain data is encoded by value: ``None``, ``bool``,
``int``, ``float``, ``complex``, ``str``, ``torch.Size``/``dtype``/``device``, tuples, lists,
dicts, and tensors (``torch.Tensor`` or ``nn.Parameter``) as dtype, shape, strides and the bytes
of their values. A subclass of ``int``, ``Tensor`` & co. is not data: it is sent as
``unsupported`` with what it is, so the judge can say so. Other objects become handles when the
caller keeps a handle table (the ``assert`` stage), else ``unsupported``.

``from_wire`` runs in the judge on data already validated by ``data_grading``: it rebuilds plain
values (fresh tensors from bytes) and never unpickles or executes anything.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import torch

MAX_DEPTH = 32
MAX_ITEMS = 100_000
MAX_BYTES = 48 * 1024 * 1024
_NoSubclass = torch._C.DisableTorchFunctionSubclass
_DTYPES = {
    str(v).removeprefix("torch."): v for v in vars(torch).values() if isinstance(v, torch.dtype)
}
_FLOATS = ("nan", "inf", "-inf")


class Malformed(ValueError):
    """Wire data that validates as a model but cannot be rebuilt (e.g. wrong byte count)."""


class Unsupported:
    """Stands, in the judge, for a value the learner's process could not send as data."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return f"<{self.what}>"


class Handles:
    """The learner-side table of objects the judge may refer to by number."""

    def __init__(self) -> None:
        self.objects: list[Any] = []

    def add(self, obj: Any) -> dict[str, Any]:
        self.objects.append(obj)
        kind = type(obj)
        out = {
            "t": "handle",
            "id": len(self.objects) - 1,
            "pytype": str(getattr(kind, "__name__", "object")),
            "module": str(getattr(kind, "__module__", "") or ""),
            "qualname": str(getattr(kind, "__qualname__", "") or ""),
        }
        if isinstance(obj, ModuleType):
            out["name"] = str(obj.__name__)
        return out

    def get(self, number: int) -> Any:
        return self.objects[number]


def _float(x: float) -> float | str:
    return x if math.isfinite(x) else repr(x)


def _subclass(obj: Any, base: type) -> dict[str, Any]:
    name = type(obj).__name__
    plain = base.__name__ if base is not torch.Tensor else "tensor"
    what = f"a subclass of {base.__name__} ({name}); return a plain {plain}"
    return {"t": "unsupported", "what": what}


class _Encoder:
    def __init__(self, handles: Handles | None, refs: Callable[[Any], int | None] | None) -> None:
        self.handles, self.refs = handles, refs
        self.items = 0
        self.bytes = 0

    def other(self, obj: Any) -> dict[str, Any]:
        if self.refs is not None:
            number = self.refs(obj)
            if number is not None:
                return {"t": "ref", "id": number}
        if self.handles is not None:
            return self.handles.add(obj)
        return {"t": "unsupported", "what": f"a {type(obj).__name__}"}

    def tensor(self, t: torch.Tensor) -> dict[str, Any]:
        if type(t) not in (torch.Tensor, torch.nn.Parameter):
            return _subclass(t, torch.Tensor)
        with _NoSubclass():
            if t.layout != torch.strided or t.is_quantized:
                return {"t": "unsupported", "what": f"a {t.layout} tensor; return a dense one"}
            out: dict[str, Any] = {
                "t": "tensor",
                "dtype": str(t.dtype).removeprefix("torch."),
                "shape": list(t.shape),
                "stride": list(t.stride()),
                "offset": int(t.storage_offset()),
                "device": str(t.device),
                "requires_grad": bool(t.requires_grad),
                "is_leaf": bool(t.is_leaf),
                "data": None,
            }
            if t.device.type != "meta":
                flat = t.detach().resolve_conj().resolve_neg().to("cpu").contiguous().reshape(-1)
                raw = flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""
                self.bytes += len(raw)
                if self.bytes > MAX_BYTES:
                    raise OverflowError("more data than the check can read")
                out["data"] = base64.b64encode(raw).decode("ascii")
            if t.is_leaf and t.grad is not None:
                out["grad"] = self.tensor(t.grad)
            return out

    def encode(self, obj: Any, depth: int = 0) -> dict[str, Any]:
        self.items += 1
        if depth > MAX_DEPTH or self.items > MAX_ITEMS:
            raise OverflowError("a value nested too deeply or too large for the check")
        kind = type(obj)
        if obj is None:
            return {"t": "none"}
        if kind is bool:
            return {"t": "bool", "v": obj}
        if kind is int:
            return {"t": "int", "v": obj}
        if kind is float:
            return {"t": "float", "v": _float(obj)}
        if kind is complex:
            return {"t": "complex", "re": _float(obj.real), "im": _float(obj.imag)}
        if kind is str:
            return {"t": "str", "v": obj}
        if kind is torch.Size:
            return {"t": "size", "items": [int(n) for n in tuple.__iter__(obj)]}
        if kind is torch.dtype:
            return {"t": "dtype", "name": str(obj).removeprefix("torch.")}
        if kind is torch.device:
            return {"t": "device", "name": str(obj)}
        if isinstance(obj, torch.Tensor):
            return self.tensor(obj)
        for base in (bool, int, float, complex, str):
            if isinstance(obj, base):
                return _subclass(obj, base)
        if isinstance(obj, tuple):  # named tuples and torch.return_types included
            return {"t": "tuple", "items": [self.encode(v, depth + 1) for v in tuple.__iter__(obj)]}
        if isinstance(obj, list):
            return {"t": "list", "items": [self.encode(v, depth + 1) for v in list.__iter__(obj)]}
        if isinstance(obj, dict):  # OrderedDict (a state_dict) included
            pairs = dict.items(obj)
            items = [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in pairs]
            return {"t": "dict", "items": items}
        return self.other(obj)


def to_wire(
    obj: Any,
    handles: Handles | None = None,
    refs: Callable[[Any], int | None] | None = None,
) -> dict[str, Any]:
    """``obj`` as wire data. Objects that are not data become handles when ``handles`` is
    given (learner side), references when ``refs`` knows them (judge side), else
    ``unsupported``. Raises OverflowError past the size and depth caps."""
    return _Encoder(handles, refs).encode(obj)


def _number(v: Any) -> float:
    return float(v) if isinstance(v, str) else v


def _tensor(d: dict[str, Any]) -> torch.Tensor:
    dtype = _DTYPES.get(d["dtype"])
    if dtype is None:
        raise Malformed(f"unknown dtype {d['dtype']!r}")
    shape = [int(n) for n in d["shape"]]
    if d.get("device", "cpu") == "meta":
        t = torch.empty(shape, dtype=dtype, device="meta")
    else:
        if d.get("data") is None:
            raise Malformed("a tensor without its values")
        raw = base64.b64decode(d["data"], validate=True)
        count = math.prod(shape)
        if len(raw) != count * dtype.itemsize:
            raise Malformed(f"{len(raw)} bytes for {count} elements of {dtype}")
        if count:
            t = torch.frombuffer(bytearray(raw), dtype=torch.uint8).view(dtype).reshape(shape)
        else:
            t = torch.empty(shape, dtype=dtype)
        t = _restride(t, d.get("stride"))
        if d.get("device", "cpu") != "cpu":
            t = t.to(_device(d["device"]))
    if d.get("requires_grad"):
        if not (dtype.is_floating_point or dtype.is_complex):
            raise Malformed(f"a {dtype} tensor cannot require grad")
        t.requires_grad_(True)
        if not d.get("is_leaf", True):
            t = t.clone()  # a result of an operation, as in the learner's process
    if d.get("grad") is not None:
        grad = _tensor(d["grad"])
        if grad.shape != t.shape or not t.is_leaf:
            raise Malformed("a gradient that does not fit its tensor")
        t.grad = grad
    return t


#: the module that registers a device type's backend, imported before a tensor goes there
_BACKENDS = {"xla": "torch_xla"}


def _device(name: str) -> torch.device:
    """The device a learner's tensor was on, its backend loaded (an XLA tensor needs
    torch_xla imported in the judge too, as in the learner's process)."""
    try:
        device = torch.device(name)
    except RuntimeError as exc:
        raise Malformed(f"unknown device {name!r}") from exc
    backend = _BACKENDS.get(device.type)
    if backend is not None:
        import importlib

        try:
            importlib.import_module(backend)
        except ImportError as exc:
            raise Malformed(f"a tensor on {name}, but this runtime has no {backend}") from exc
    return device


def _restride(t: torch.Tensor, stride: list[int] | None) -> torch.Tensor:
    """The same values laid out with the learner's strides (so stride notes stay true)."""
    if not stride or len(stride) != t.dim() or list(t.stride()) == stride:
        return t
    if any(s < 0 for s in stride):
        raise Malformed("negative strides")
    try:
        out = torch.empty_strided(t.shape, stride, dtype=t.dtype)
        out.copy_(t)
    except RuntimeError:  # overlapping strides (an expanded tensor): keep the values dense
        return t
    return out


def from_wire(d: dict[str, Any], handle: Callable[[dict[str, Any]], Any] | None = None) -> Any:
    """Rebuild plain values from validated wire data; ``handle`` turns a handle into an object
    (a proxy in the judge, the real object in the learner); without it handles are
    ``Unsupported``."""
    t = d["t"]
    if t == "none":
        return None
    if t in ("bool", "int", "str"):
        return d["v"]
    if t == "float":
        return _number(d["v"])
    if t == "complex":
        return complex(_number(d["re"]), _number(d["im"]))
    if t == "size":
        return torch.Size(d["items"])
    if t == "dtype":
        dtype = _DTYPES.get(d["name"])
        if dtype is None:
            raise Malformed(f"unknown dtype {d['name']!r}")
        return dtype
    if t == "device":
        return torch.device(d["name"])
    if t == "tensor":
        return _tensor(d)
    if t == "tuple":
        return tuple(from_wire(v, handle) for v in d["items"])
    if t == "list":
        return [from_wire(v, handle) for v in d["items"]]
    if t == "dict":
        out = {}
        for k, v in d["items"]:
            key = from_wire(k, handle)
            try:
                out[key] = from_wire(v, handle)
            except TypeError as exc:  # an unhashable key
                raise Malformed(f"a dict key that is not hashable: {exc}") from None
        return out
    if t in ("handle", "ref") and handle is not None:
        return handle(d)
    if t == "unsupported":
        return Unsupported(d["what"])
    return Unsupported(f"a {d.get('pytype', 'value')} that stays in your process")
