"""Runtime side of the stride map: evaluate the learner's expression and map every element of a
bounded window to its storage offset (runs in the sandbox; imports torch)."""

from __future__ import annotations

import ast
import itertools
import math
import re
from typing import Any

import torch

from tutor.probes.data_stride_map import SharedWith, StrideMap, ViewTry

#: at most this many elements get offsets and values (the rest is elided)
WINDOW_CAP = 4096
#: at most this many storage cells are drawn in the strip
STRIP_CAP = 512
#: per-dim window caps, from the last dim backwards; leading dims get the last entry
DIM_CAPS = (32, 16, 4)


class StrideInputError(ValueError):
    """The learner's input cannot be mapped; the message says why in plain words."""


def namespace() -> dict[str, Any]:
    """Fresh globals for learner code: torch, nn, F (and a fixed seed)."""
    torch.manual_seed(0)
    return {"torch": torch, "nn": torch.nn, "F": torch.nn.functional}


def run_source(source: str, ns: dict[str, Any], what: str) -> Any:
    """Exec ``source`` in ``ns``; return the value of its last line if that is an expression."""
    try:
        tree = ast.parse(source, filename=f"<{what}>")
    except SyntaxError as exc:
        raise StrideInputError(
            f"syntax error in the {what}, line {exc.lineno}: {exc.msg}"
        ) from None
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body[-1].value)
        tree.body.pop()
    try:
        exec(compile(tree, f"<{what}>", "exec"), ns)
        return None if last is None else eval(compile(last, f"<{what}>", "eval"), ns)
    except Exception as exc:
        raise StrideInputError(explain(exc, what)) from None


def explain(exc: Exception, what: str) -> str:
    """A learner's exception in plain words (an allocation failure says how big it was)."""
    text = str(exc)
    asked = re.search(r"tried to allocate (\d+) bytes", text)
    if "can't allocate memory" in text or asked or isinstance(exc, MemoryError):
        size = f"{int(asked.group(1)):,} bytes" if asked else "more memory than the lab allows"
        return (
            f"the {what} asked for {size}, more than the lab's memory limit: "
            "try a smaller tensor (expand and as_strided allocate nothing)"
        )
    return f"the {what} raised {type(exc).__name__}: {text}"


def as_json(value: Any) -> bool | int | float | str | None:
    """A JSON-safe scalar (non-finite floats and complex numbers as strings)."""
    if isinstance(value, complex):
        return str(value)
    if isinstance(value, float):
        return float(f"{value:.6g}") if math.isfinite(value) else str(value)
    scalar: bool | int | float | str | None = value
    return scalar


def window_of(shape: list[int]) -> list[int]:
    """A per-dim window (prefix sizes) holding at most ``WINDOW_CAP`` elements."""
    ndim = len(shape)
    window = [
        min(size, DIM_CAPS[min(ndim - 1 - d, len(DIM_CAPS) - 1)]) for d, size in enumerate(shape)
    ]
    for d in range(ndim):
        if math.prod(window) <= WINDOW_CAP:
            break
        window[d] = min(window[d], 1)
    return window


def offsets_of(t: torch.Tensor, limit: int = 100_000) -> torch.Tensor | None:
    """Every storage offset ``t`` reads (None when it has more than ``limit`` elements)."""
    if t.numel() > limit:
        return None
    offs = torch.full((), int(t.storage_offset()), dtype=torch.int64)
    for size, stride in zip(t.shape, t.stride(), strict=True):
        offs = offs.unsqueeze(-1) + torch.arange(size, dtype=torch.int64) * stride
    return offs.reshape(-1)


def storage_elements(t: torch.Tensor) -> int:
    """How many elements of ``t``'s dtype its storage holds."""
    return t.untyped_storage().nbytes() // t.element_size()


def shared_tensors(t: torch.Tensor, ns: dict[str, Any], strip: range) -> list[SharedWith]:
    """Named tensors (and ``t._base``) that use the same storage as ``t``."""
    if t.device.type == "meta" or t.untyped_storage().nbytes() == 0:
        return []
    ptr = t.untyped_storage().data_ptr()
    found: list[tuple[str, torch.Tensor]] = []
    for name, obj in ns.items():
        if (
            isinstance(obj, torch.Tensor)
            and obj is not t
            and not name.startswith("_")
            and obj.device == t.device
            and obj.untyped_storage().data_ptr() == ptr
        ):
            found.append((name, obj))
    base = t._base
    if base is not None and all(obj is not base for _, obj in found):
        found.append(("._base", base))
    shared = []
    for name, obj in found:
        if obj.is_contiguous():
            first = obj.storage_offset()
            cells = [o for o in strip if first <= o < first + obj.numel()]
        else:
            offs = offsets_of(obj)
            cells = [] if offs is None else sorted({o for o in offs.tolist() if o in strip})
        shared.append(
            SharedWith(
                name=name,
                shape=list(obj.shape),
                stride=list(obj.stride()),
                storage_offset=int(obj.storage_offset()),
                cells=cells[:STRIP_CAP],
            )
        )
    return shared


def parse_shape(text: str) -> list[int]:
    """``"2, 12"``, ``"(2, 12)"``, ``"-1"`` -> a list of ints."""
    try:
        value = ast.literal_eval(text.strip() or "()")
    except (ValueError, SyntaxError):
        value = None
    if isinstance(value, int):
        value = [value]
    if not isinstance(value, (tuple, list)) or not all(isinstance(v, int) for v in value):
        raise StrideInputError(f"a view shape is integers like '2, 12' or '-1, 4', not {text!r}")
    return list(value)


def merge_groups(old: list[int], new: list[int]) -> list[list[int]]:
    """The runs of old dims that the new shape merges into one dim (size-1 dims ignored)."""
    old_dims = [d for d, s in enumerate(old) if s != 1]
    new_sizes = [s for s in new if s != 1]
    groups: list[list[int]] = []
    i = j = 0
    while i < len(old_dims) and j < len(new_sizes):
        group, have, want = [old_dims[i]], old[old_dims[i]], new_sizes[j]
        i, j = i + 1, j + 1
        while have != want:
            if have < want and i < len(old_dims):
                group.append(old_dims[i])
                have *= old[old_dims[i]]
                i += 1
            elif have > want and j < len(new_sizes):
                want *= new_sizes[j]
                j += 1
            else:
                return groups
        if len(group) > 1:
            groups.append(group)
    return groups


def try_view(t: torch.Tensor, shape: list[int]) -> ViewTry:
    """Run ``view`` and ``reshape`` for real and explain a failing view."""
    result = ViewTry(shape=shape, ok=False)
    try:
        v = t.view(shape)
        result.ok, result.result_shape, result.result_stride = True, list(v.shape), list(v.stride())
    except RuntimeError as exc:
        result.error = str(exc)
    try:
        r = t.reshape(shape)
        result.reshape_ok = True
        if t.device.type == "meta":
            result.reshape_copied = not r._is_view()
        else:
            result.reshape_copied = r.untyped_storage().data_ptr() != t.untyped_storage().data_ptr()
        if not result.ok:
            result.result_shape, result.result_stride = list(r.shape), list(r.stride())
    except RuntimeError as exc:
        result.reshape_error = str(exc)
    if result.ok:
        result.why = "view works: every run of dims it merges is laid out back to back in storage."
        return result
    if not result.reshape_ok:
        result.why = f"the shape must hold exactly {t.numel()} elements."
        return result
    size, stride = list(t.shape), list(t.stride())
    reasons = []
    for group in merge_groups(size, list(result.result_shape or [])):
        for a, b in itertools.pairwise(group):
            if stride[a] != stride[b] * size[b]:
                result.breaks.append(a)
                reasons.append(
                    f"dims {a} and {b} cannot merge: stride[{a}] = {stride[a]} but "
                    f"stride[{b}]·size[{b}] = {stride[b]}·{size[b]} = {stride[b] * size[b]}"
                )
    result.why = "; ".join(reasons) or "the new shape re-splits dims that are not contiguous."
    result.why += ". reshape " + ("copied the data." if result.reshape_copied else "made a view.")
    return result


def check_tensor(t: Any) -> torch.Tensor:
    """``t`` if it is a strided tensor, else a plain-words error."""
    if not isinstance(t, torch.Tensor):
        raise StrideInputError(f"the expression gave a {type(t).__name__}, not a tensor")
    if t.layout != torch.strided:
        raise StrideInputError(f"a {t.layout} tensor has no strides; try .to_dense()")
    return t


def strip_range(t: torch.Tensor, offsets: list[int]) -> range:
    """The storage cells the strip draws: all of a small storage, else from the first offset."""
    total = storage_elements(t)
    start = 0 if total <= STRIP_CAP or not offsets else min(offsets)
    return range(start, min(total, start + STRIP_CAP))


def stride_map(expr: str, setup: str = "", view: str | None = None) -> StrideMap:
    """Evaluate ``expr`` (after ``setup``) and map its elements to storage offsets."""
    ns = namespace()
    if setup.strip():
        run_source(setup, ns, "setup")
    t = check_tensor(run_source(expr, ns, "expression"))
    shape, stride = list(t.shape), list(t.stride())
    window = window_of(shape)
    index_list = list(itertools.product(*(range(w) for w in window)))
    offsets = [
        [*idx, int(t.storage_offset()) + sum(i * s for i, s in zip(idx, stride, strict=True))]
        for idx in index_list
    ]
    meta = t.device.type == "meta"
    values = None
    if not meta:
        part = t[tuple(slice(0, w) for w in window)]
        values = [as_json(v) for v in part.reshape(-1).tolist()]
    strip = strip_range(t, [o[-1] for o in offsets])
    strip_values = None
    if not meta and len(strip):
        cells = torch.as_strided(t.detach(), (len(strip),), (1,), strip.start)
        strip_values = [as_json(v) for v in cells.tolist()]
    return StrideMap(
        expr=expr,
        shape=shape,
        stride=stride,
        storage_offset=int(t.storage_offset()),
        contiguous=t.is_contiguous(),
        dtype=str(t.dtype),
        device=str(t.device),
        element_size=t.element_size(),
        numel=t.numel(),
        storage_elements=storage_elements(t),
        window=window,
        elided=len(index_list) < t.numel(),
        offsets=offsets,
        values=values,
        strip_start=strip.start,
        strip_values=strip_values,
        strip_len=len(strip),
        shared=shared_tensors(t, ns, strip),
        view=None if view is None else try_view(t, parse_shape(view)),
    )
