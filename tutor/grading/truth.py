"""Read the tagged JSON values that come back from the sandbox, and show them as text.

The format is written by ``tutor/probes/values.py`` (runtime side): every value is a dict with
a ``type`` tag — ``size``, ``tuple``, ``list`` (``items``); ``int``, ``float``, ``bool``,
``str`` (``value``); ``none``; ``dtype``, ``device`` (``name``); ``tensor`` (``shape``,
``dtype``, ``device``, ``stride``, ``contiguous``, ``requires_grad``, ``grad_fn``, ``numel``,
``values`` or None when elided); ``dict`` (``items``: key/value pairs); ``exception``
(``name``, ``message``); ``other`` (``pytype``, ``repr``). This module is torch-free.
"""

from __future__ import annotations

import math
from typing import Any

Tagged = dict[str, Any]

_FLOAT_TYPES = ("float16", "bfloat16", "float32", "float64", "float8")


def number(v: Any) -> Any:
    """A tagged float's ``value`` back to a Python number (``"nan"`` -> ``math.nan``)."""
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            try:
                return complex(v)
            except ValueError:
                return v
    return v


def _num_text(v: Any, is_float: bool) -> str:
    v = number(v)
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if v == int(v) and abs(v) < 1e15:
            return f"{int(v)}."
        return f"{v:.4g}"
    if is_float and isinstance(v, int):
        return f"{v}."
    return str(v)


def _nested(values: Any, is_float: bool) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_nested(v, is_float) for v in values) + "]"
    return _num_text(values, is_float)


def show_tensor(t: Tagged) -> str:
    """A tensor as a learner would print it: ``tensor([[1., 2.]], dtype=torch.float64)``."""
    is_float = t["dtype"].startswith(_FLOAT_TYPES)
    values = t.get("values")
    body = f"<{t.get('numel', '?')} values>" if values is None else _nested(values, is_float)
    extras = []
    if t["dtype"] not in ("float32", "int64", "bool"):
        extras.append(f"dtype=torch.{t['dtype']}")
    if t.get("device", "cpu") != "cpu":
        extras.append(f"device='{t['device']}'")
    if t.get("requires_grad"):
        extras.append(f"grad_fn=<{t['grad_fn']}>" if t.get("grad_fn") else "requires_grad=True")
    inner = ", ".join([body, *extras])
    return f"tensor({inner})"


def show(v: Tagged) -> str:
    """A readable rendering of a tagged value (Python-like; exceptions as ``Type: message``)."""
    kind = v.get("type")
    if kind == "size":
        return f"torch.Size([{', '.join(show(i) for i in v['items'])}])"
    if kind == "tuple":
        items = [show(i) for i in v["items"]]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if kind == "list":
        return f"[{', '.join(show(i) for i in v['items'])}]"
    if kind == "float":
        text = _num_text(v["value"], True)
        return text + "0" if text.endswith(".") else text
    if kind in ("int", "bool"):
        return str(v["value"])
    if kind == "str":
        return repr(v["value"])
    if kind == "none":
        return "None"
    if kind in ("dtype",):
        return f"torch.{v['name']}"
    if kind == "device":
        return (
            f"device(type='{v['name'].split(':')[0]}')"
            if ":" not in v["name"]
            else (f"device(type='{v['name'].split(':')[0]}', index={v['name'].split(':')[1]})")
        )
    if kind == "tensor":
        return show_tensor(v)
    if kind == "dict":
        return "{" + ", ".join(f"{show(k)}: {show(x)}" for k, x in v["items"]) + "}"
    if kind == "exception":
        return f"raises {v['name']}: {v['message']}" if v.get("message") else f"raises {v['name']}"
    return str(v.get("repr", v))
