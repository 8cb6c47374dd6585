"""Runtime side: turn real torch/Python objects into the tagged JSON the grading engine reads.

Every value is a dict with a ``type`` tag (the format is documented in
``tutor/grading/truth.py``, which reads it in the UI process):

- ``size`` / ``tuple`` / ``list``: ``items`` (each item encoded);
- ``int`` / ``float`` / ``bool`` / ``str``: ``value`` (a non-finite float is ``"nan"``,
  ``"inf"`` or ``"-inf"``); ``none``;
- ``dtype``: ``name`` (``"float32"``); ``device``: ``name`` (``"cpu"``, ``"cuda:0"``);
- ``tensor``: ``shape``, ``dtype``, ``device``, ``stride``, ``storage_offset``,
  ``contiguous``, ``requires_grad``, ``grad_fn``, ``numel``, ``values`` (nested lists, or None
  when elided because the tensor holds more than ``max_elements``);
- ``dict``: ``items`` as ``[key, value]`` pairs; ``exception``: ``name``, ``message``;
- ``other``: ``pytype``, ``repr`` (anything else, e.g. a module).
"""

from __future__ import annotations

import math
from typing import Any

import torch

from tutor.safe_text import keep_tail

MAX_ELEMENTS = 4096
MAX_ITEMS = 1000


def dtype_name(dtype: torch.dtype) -> str:
    """``torch.float32`` -> ``"float32"``."""
    return str(dtype).removeprefix("torch.")


def scalar(x: Any) -> Any:
    """A JSON-safe Python scalar (non-finite floats and complex numbers become strings)."""
    if isinstance(x, bool) or x is None or isinstance(x, int | str):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else repr(x)
    if isinstance(x, complex):
        return repr(x)
    return repr(x)


def _plain(values: Any) -> Any:
    if isinstance(values, list):
        return [_plain(v) for v in values]
    return scalar(values)


def tensor_values(t: torch.Tensor) -> Any:
    """The elements of ``t`` as nested lists of JSON-safe scalars."""
    with torch._C.DisableTorchFunctionSubclass():
        return _plain(t.detach().cpu().resolve_conj().resolve_neg().tolist())


def encode_tensor(t: torch.Tensor, max_elements: int = MAX_ELEMENTS) -> dict[str, Any]:
    """The metadata of a tensor and, when not too large, its values."""
    with torch._C.DisableTorchFunctionSubclass():
        numel = t.numel()
        is_sparse = t.layout != torch.strided
        return {
            "type": "tensor",
            "shape": list(t.shape),
            "dtype": dtype_name(t.dtype),
            "device": str(t.device),
            "stride": None if is_sparse else list(t.stride()),
            "storage_offset": None if is_sparse else t.storage_offset(),
            "contiguous": None if is_sparse else t.is_contiguous(),
            "requires_grad": t.requires_grad,
            "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else None,
            "numel": numel,
            "values": _values_or_none(t, is_sparse) if numel <= max_elements else None,
        }


def _values_or_none(t: torch.Tensor, is_sparse: bool) -> Any:
    """The values, or None when they cannot be read (meta tensors, odd layouts)."""
    if t.device.type == "meta":
        return None
    try:
        return tensor_values(t.to_dense() if is_sparse else t)
    except Exception:
        return None


def encode_exception(exc: BaseException) -> dict[str, Any]:
    """An exception as ``{"type": "exception", "name", "message"}``."""
    return {"type": "exception", "name": type(exc).__name__, "message": keep_tail(str(exc), 2000)}


def encode(obj: Any, depth: int = 0) -> dict[str, Any]:
    """Encode any object as tagged JSON (see the module docstring)."""
    if depth > 20:
        return {"type": "other", "pytype": type(obj).__name__, "repr": "..."}
    if isinstance(obj, torch.Tensor):
        return encode_tensor(obj)
    if isinstance(obj, torch.Size):
        return {"type": "size", "items": [{"type": "int", "value": int(n)} for n in obj]}
    if isinstance(obj, bool):
        return {"type": "bool", "value": obj}
    if isinstance(obj, int):
        return {"type": "int", "value": obj}
    if isinstance(obj, float):
        return {"type": "float", "value": scalar(obj)}
    if obj is None:
        return {"type": "none"}
    if isinstance(obj, str):
        return {"type": "str", "value": obj[:2000]}
    if isinstance(obj, torch.dtype):
        return {"type": "dtype", "name": dtype_name(obj)}
    if isinstance(obj, torch.device):
        return {"type": "device", "name": str(obj)}
    if isinstance(obj, tuple | list):
        tag = "tuple" if isinstance(obj, tuple) else "list"
        return {"type": tag, "items": [encode(v, depth + 1) for v in list(obj)[:MAX_ITEMS]]}
    if isinstance(obj, dict):
        items = list(obj.items())[:MAX_ITEMS]
        return {
            "type": "dict",
            "items": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in items],
        }
    if isinstance(obj, BaseException):
        return encode_exception(obj)
    try:
        text = repr(obj)
    except Exception as exc:  # a broken __repr__ must not break grading
        text = f"<unprintable {type(obj).__name__}: {exc!r}>"
    return {"type": "other", "pytype": type(obj).__name__, "repr": text[:2000]}
