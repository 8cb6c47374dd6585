"""Runtime side: build the random inputs of one trial of a code check, deterministically.

A trial spec (built by the UI-side engine) is ``{"seed": int, "params": {...}, "args":
{name: {"tensor": [shape ints], "dtype": "float32", "requires_grad": false} | {"value": x}}}``.
Tensor values come from ``torch.Generator().manual_seed(seed)``, so the same spec always gives
the same tensors, in the learner's call and the reference's alike.
"""

from __future__ import annotations

from typing import Any

import torch


def torch_dtype(name: str) -> torch.dtype:
    """``"float32"`` or ``"torch.float32"`` -> ``torch.float32`` (ValueError if unknown)."""
    dtype = getattr(torch, name.removeprefix("torch."), None)
    if not isinstance(dtype, torch.dtype):
        raise ValueError(f"unknown dtype {name!r}")
    return dtype


def random_tensor(shape: list[int], dtype: torch.dtype, gen: torch.Generator) -> torch.Tensor:
    """Random values suited to the dtype: normal floats, small ints, coin-flip bools."""
    return constrained_tensor({"tensor": shape}, dtype, gen)


def _rows(shape: list[int]) -> tuple[int, int]:
    """(rows, row length) of a shape, the last dim being a row (a 0-d tensor: one of one)."""
    length = shape[-1] if shape else 1
    total = 1
    for n in shape:
        total *= n
    return (total // length if length else 0), length


def _int_range(spec: dict[str, Any], dtype: torch.dtype) -> tuple[int, int]:
    if "range" in spec:
        lo, hi = (int(b) for b in spec["range"])
    elif "sum" in spec:
        lo, hi = 0, max(int(spec["sum"]), 0)
    else:
        lo, hi = (0 if dtype == torch.uint8 else -9), 9
    if lo > hi:
        raise ValueError(f"range [{lo}, {hi}] is empty")
    return lo, hi


def _with_sum(
    rows: int, length: int, lo: int, hi: int, total: int, gen: torch.Generator
) -> torch.Tensor:
    """``rows`` rows of ``length`` integers in [lo, hi], each row adding up to ``total``."""
    if length * lo > total or length * hi < total:
        raise ValueError(f"{length} integers in [{lo}, {hi}] cannot add up to {total}")
    out = torch.full((rows, length), lo, dtype=torch.int64)
    for r in range(rows):
        left = total - length * lo
        while left > 0:
            room = (out[r] < hi).nonzero().flatten()
            pick = room[torch.randint(0, len(room), (1,), generator=gen)]
            step = min(left, int(torch.randint(1, left + 1, (1,), generator=gen)))
            step = min(step, hi - int(out[r, pick]))
            out[r, pick] += step
            left -= step
    return out


def _ints(spec: dict[str, Any], dtype: torch.dtype, gen: torch.Generator) -> torch.Tensor:
    shape = [int(n) for n in spec["tensor"]]
    rows, length = _rows(shape)
    lo, hi = _int_range(spec, dtype)
    if "sum" in spec:
        flat = _with_sum(rows, length, lo, hi, int(spec["sum"]), gen)
    elif spec.get("unique"):
        if hi - lo + 1 < length:
            raise ValueError(f"{length} different integers do not fit in [{lo}, {hi}]")
        perms = [torch.randperm(hi - lo + 1, generator=gen)[:length] + lo for _ in range(rows)]
        flat = torch.stack(perms) if perms else torch.zeros((0, length), dtype=torch.int64)
    else:
        flat = torch.randint(lo, hi + 1, (rows, length), generator=gen)
    return flat.reshape(shape).to(dtype)


def _floats(spec: dict[str, Any], dtype: torch.dtype, gen: torch.Generator) -> torch.Tensor:
    shape = [int(n) for n in spec["tensor"]]
    if "range" in spec:
        lo, hi = (float(b) for b in spec["range"])
        if lo > hi:
            raise ValueError(f"range [{lo:g}, {hi:g}] is empty")
        return (lo + (hi - lo) * torch.rand(shape, generator=gen, dtype=torch.float64)).to(dtype)
    return torch.randn(shape, generator=gen).to(dtype)


def _bools(spec: dict[str, Any], gen: torch.Generator) -> torch.Tensor:
    shape = [int(n) for n in spec["tensor"]]
    if "density" not in spec:
        return torch.randint(0, 2, shape, generator=gen).bool()
    total = _rows(shape)[0] * _rows(shape)[1]
    flat = torch.zeros(total, dtype=torch.bool)
    flat[torch.randperm(total, generator=gen)[: round(float(spec["density"]) * total)]] = True
    return flat.reshape(shape)


def constrained_tensor(
    spec: dict[str, Any], dtype: torch.dtype, gen: torch.Generator
) -> torch.Tensor:
    """A random tensor of ``spec["tensor"]``'s shape that respects the spec's constraints:
    ``range`` (inclusive), ``unique`` and ``sum`` (per row of the last dim), ``sorted``
    (ascending along the last dim), ``density`` (bools: the exact fraction of True).
    ValueError when they cannot all hold."""
    if dtype == torch.bool:
        return _bools(spec, gen)
    if dtype.is_complex:
        return torch.randn(spec["tensor"], generator=gen, dtype=torch.complex64).to(dtype)
    t = _floats(spec, dtype, gen) if dtype.is_floating_point else _ints(spec, dtype, gen)
    if spec.get("sorted") and t.dim() > 0:
        t = t.sort(dim=-1).values
    return t


def make_inputs(spec: dict[str, Any]) -> list[Any]:
    """The positional arguments of one trial, in the order the check declares them.

    ValueError when an argument's constraints cannot hold (an authoring error)."""
    gen = torch.Generator().manual_seed(int(spec["seed"]))
    out: list[Any] = []
    for name, arg in spec["args"].items():
        if "tensor" in arg or "literal" in arg:
            dtype = torch_dtype(arg["dtype"])
            try:
                if "literal" in arg:
                    t = torch.tensor(arg["literal"], dtype=dtype)
                else:
                    t = constrained_tensor(arg, dtype, gen)
            except (ValueError, TypeError, RuntimeError) as exc:
                raise ValueError(f"argument `{name}`: {exc}") from None
            out.append(t.requires_grad_(True) if arg.get("requires_grad") else t)
        else:
            out.append(arg["value"])
    return out


def describe_inputs(spec: dict[str, Any], inputs: list[Any], small: int = 24) -> dict[str, Any]:
    """The trial's inputs as data: each tensor's shape and dtype, and its values when small."""
    described: dict[str, Any] = {}
    for name, value in zip(spec["args"], inputs, strict=True):
        if isinstance(value, torch.Tensor):
            entry: dict[str, Any] = {"shape": list(value.shape), "dtype": str(value.dtype)}
            if value.numel() <= small:
                entry["values"] = value.detach().tolist()
            described[name] = entry
        else:
            described[name] = {"value": value}
    return described


def numel(inputs: list[Any]) -> int:
    """Total number of tensor elements among the inputs (to pick the smallest failing trial)."""
    return sum(v.numel() for v in inputs if isinstance(v, torch.Tensor))


def fresh_copies(inputs: list[Any]) -> list[Any]:
    """Independent copies of the inputs, so a call that mutates its arguments harms no other."""
    out: list[Any] = []
    for v in inputs:
        if isinstance(v, torch.Tensor):
            out.append(v.detach().clone().requires_grad_(v.requires_grad))
        else:
            out.append(v)
    return out
