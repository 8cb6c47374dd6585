"""Runtime side: compare a learner's output with the reference's, strictly, and say what differs.

``diff(expected, got, tolerance)`` returns None when they agree, else a dict with ``what``
(``type | length | keys | shape | dtype | device | requires_grad | values | value``), a one-line
``message``, the ``path`` into nested outputs (``"[1]"`` for the second item of a tuple), and
for ``values`` the ``index`` of the first wrong element with its ``expected``/``got`` values.
By default shapes and dtypes must match exactly: a result that would merely broadcast against
the reference is wrong. A drill's ``compare`` policy (``{"shape": "exact" | "broadcast",
"dtype": "exact" | "numeric", "order": "exact" | "sorted" | "set"}``) relaxes that for tensors:
a result that broadcasts to the reference's shape is expanded, any numeric dtype is compared by
value, and ``sorted``/``set`` compare the sorted values or the distinct values.
``notes`` lists differences that do not fail the check on their own (strides, contiguity).
"""

from __future__ import annotations

import math
from typing import Any

import torch

from tutor.probes.grade_wire import Unsupported
from tutor.probes.values import dtype_name, scalar

# bound before any learner code runs, so rebinding torch.allclose & co cannot fool the check
_isclose = torch.isclose
_eq = torch.eq
_nonzero = torch.nonzero
_not = torch.logical_not
_NoSubclass = torch._C.DisableTorchFunctionSubclass


def _kind(x: Any) -> str:
    if isinstance(x, Unsupported):
        return x.what
    if isinstance(x, torch.Tensor):
        return f"a tensor of shape {tuple(x.shape)}"
    if isinstance(x, bool):
        return "a bool"
    if x is None:
        return "None"
    return f"a {type(x).__name__}"


def _fail(what: str, message: str, path: str, **extra: Any) -> dict[str, Any]:
    return {"what": what, "message": message, "path": path, **extra}


def _wrong_value(expected: Any, got: Any, where: str, path: str) -> dict[str, Any]:
    """A scalar that is not the expected one (both values sent back, as JSON scalars)."""
    message = f"returned {got!r}{where}; expected {expected!r}"
    return _fail("value", message, path, expected=scalar(expected), got=scalar(got))


_ORDER = {"sorted": " (compared in sorted order)", "set": " (compared as sets of values)"}


def _by_order(exp: torch.Tensor, got: torch.Tensor, order: str) -> tuple[torch.Tensor, ...]:
    """Both tensors as the ``order`` policy compares them (``exact``: unchanged)."""
    if order == "sorted":
        return exp.detach().flatten().sort().values, got.detach().flatten().sort().values
    if order == "set":
        return torch.unique(exp.detach().flatten()), torch.unique(got.detach().flatten())
    return exp, got


def _policy_diff(
    exp: torch.Tensor, got: torch.Tensor, tol: float, path: str, policy: dict[str, Any]
) -> dict[str, Any] | None:
    where = f" at {path}" if path else ""
    order = policy.get("order", "exact")
    if order == "set" or (order == "sorted" and exp.shape == got.shape):
        e, g = _by_order(exp, got, order)
        if e.shape != g.shape:
            return _fail("values", f"{g.numel()} distinct values{where}, expected {e.numel()}"
                         f"{_ORDER[order]}", path, expected=e.tolist(), got=g.tolist())  # fmt: skip
        d = _tensor_diff(e, g, tol, path, {**policy, "order": "exact"})
        if d is not None:
            d["message"] += _ORDER[order]
        return d
    if exp.shape != got.shape and policy.get("shape") == "broadcast":
        try:
            fits = torch.broadcast_shapes(got.shape, exp.shape) == exp.shape  # type: ignore[no-untyped-call]
        except RuntimeError:
            fits = False
        if not fits:
            return _fail("shape", f"shape{where} is {tuple(got.shape)}, which does not broadcast "
                         f"to the expected {tuple(exp.shape)}", path, expected=list(exp.shape),
                         got=list(got.shape))  # fmt: skip
        got = got.detach().expand(exp.shape)
    if exp.dtype != got.dtype and policy.get("dtype") == "numeric":
        if exp.is_complex() or got.is_complex():
            return _tensor_diff(exp, got, tol, path, {})
        common = torch.promote_types(exp.dtype, got.dtype)
        exp, got = exp.detach().to(common), got.detach().to(common)
    return _tensor_diff(exp, got, tol, path, {})


def _tensor_diff(
    exp: torch.Tensor,
    got: torch.Tensor,
    tol: float,
    path: str,
    policy: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    if policy:
        return _policy_diff(exp, got, tol, path, policy)
    where = f" at {path}" if path else ""
    for what, want, have in (
        ("shape", list(exp.shape), list(got.shape)),
        ("dtype", dtype_name(exp.dtype), dtype_name(got.dtype)),
        ("device", str(exp.device), str(got.device)),
    ):
        if want != have:
            shown = (tuple(have), tuple(want)) if isinstance(want, list) else (have, want)
            message = f"{what}{where} is {shown[0]}, expected {shown[1]}"
            return _fail(what, message, path, expected=want, got=have)
    if exp.requires_grad != got.requires_grad:
        state = "requires" if got.requires_grad else "does not require"
        return _fail(
            "requires_grad",
            f"the result{where} {state} grad; the reference's "
            f"{'does' if exp.requires_grad else 'does not'}",
            path,
            expected=exp.requires_grad,
            got=got.requires_grad,
        )
    e, g = exp.detach(), got.detach()
    if e.is_floating_point() or e.is_complex():
        ok = _isclose(g, e, rtol=tol, atol=tol, equal_nan=True)
    else:
        ok = _eq(g, e)
    bad = _nonzero(_not(ok))
    if len(bad):
        index = [int(i) for i in bad[0]]
        at = tuple(index)
        ev, gv = (
            (scalar(e[at].item()), scalar(g[at].item()))
            if index
            else (scalar(e.item()), scalar(g.item()))
        )
        place = f"; the first is at index {index}" if index else ""
        return _fail(
            "values",
            f"{len(bad)} of {e.numel()} elements{where} differ{place}: got {gv}, expected {ev}",
            path,
            index=index,
            expected=ev,
            got=gv,
            count=len(bad),
        )
    return None


def diff(
    expected: Any,
    got: Any,
    tolerance: float = 1e-5,
    path: str = "",
    policy: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """None when ``got`` agrees with ``expected``, else what differs (see module docstring);
    ``policy`` is the drill's ``compare`` (None or ``{}``: everything exact)."""
    with _NoSubclass():
        return _diff(expected, got, tolerance, path, policy or {})


def _diff(
    expected: Any, got: Any, tol: float, path: str, policy: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    policy = policy or {}
    where = f" at {path}" if path else ""
    if isinstance(expected, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            return _fail("type", f"returned {_kind(got)}{where}; expected {_kind(expected)}", path)
        return _tensor_diff(expected, got, tol, path, policy)
    if isinstance(expected, tuple | list):
        if type(got) is not type(expected) and not (
            isinstance(got, tuple | list)
            and isinstance(expected, torch.Size | tuple)
            and isinstance(got, torch.Size | tuple)
        ):
            return _fail("type", f"returned {_kind(got)}{where}; expected {_kind(expected)}", path)
        if len(got) != len(expected):
            return _fail(
                "length", f"returned {len(got)} items{where}; expected {len(expected)}", path
            )
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            d = _diff(e, g, tol, f"{path}[{i}]", policy)
            if d:
                return d
        return None
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return _fail("type", f"returned {_kind(got)}{where}; expected a dict", path)
        if set(expected) != set(got):
            return _fail(
                "keys",
                f"keys{where} are {sorted(map(str, got))}, expected {sorted(map(str, expected))}",
                path,
            )
        for k in expected:
            d = _diff(expected[k], got[k], tol, f"{path}[{k!r}]", policy)
            if d:
                return d
        return None
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        if type(got) is not type(expected) or got != expected:
            return _wrong_value(expected, got, where, path)
        return None
    if isinstance(expected, int | float):
        if isinstance(got, bool) or not isinstance(got, int | float):
            return _fail("type", f"returned {_kind(got)}{where}; expected {_kind(expected)}", path)
        if isinstance(expected, int) and isinstance(got, int):
            same = got == expected
        else:
            same = math.isclose(got, expected, rel_tol=tol, abs_tol=tol) or (
                math.isnan(got) and math.isnan(expected)
            )
        if not same:
            return _wrong_value(expected, got, where, path)
        return None
    try:
        same = bool(got == expected)
    except Exception:
        same = False
    if not same:
        return _fail("value", f"returned {got!r}{where}; expected {expected!r}", path)
    return None


def notes(expected: Any, got: Any) -> list[str]:
    """Differences that do not fail a check alone: strides and contiguity of tensor results."""
    if not (isinstance(expected, torch.Tensor) and isinstance(got, torch.Tensor)):
        return []
    with _NoSubclass():
        if expected.layout != torch.strided or got.layout != torch.strided:
            return []
        if expected.shape != got.shape:
            return []
        out = []
        if expected.is_contiguous() != got.is_contiguous():
            out.append(
                f"your result is {'' if got.is_contiguous() else 'not '}contiguous; the "
                f"reference's is {'' if expected.is_contiguous() else 'not'}".rstrip()
            )
        elif expected.stride() != got.stride():
            out.append(f"strides {got.stride()} differ from the reference's {expected.stride()}")
        return out


def input_change(name: str, before: Any, after: Any) -> str | None:
    """How a call changed its argument ``name`` (``before``: the judge's own copy of it), or
    None when it did not: its values, its ``requires_grad``, or a ``.grad`` it now holds."""
    with _NoSubclass():
        if isinstance(before, torch.Tensor) and isinstance(after, torch.Tensor):
            if after.requires_grad != before.requires_grad:
                now = "requires" if after.requires_grad else "no longer requires"
                return f"your function changed its input `{name}`: it now {now} grad"
            if after.grad is not None and before.grad is None:
                return f"your function changed its input `{name}`: it now holds a `.grad`"
            d = _diff(before.detach(), after.detach(), 0.0, "")
            if d is None:
                return None
            if d["what"] == "values":
                at = f" at index {d['index']}" if d["index"] else ""
                return (f"your function changed the values of its input `{name}`: "
                        f"{d['count']} changed, the first{at} is now {_short(d['got'])}, "
                        f"was {_short(d['expected'])}")  # fmt: skip
            return f"your function changed its input `{name}`: {d['message']}"
        if _diff(before, after, 0.0, "") is not None:
            return f"your function changed its input `{name}`"
        return None


def _short(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else repr(v)
