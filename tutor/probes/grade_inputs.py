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
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen).bool()
    if dtype.is_floating_point:
        return torch.randn(shape, generator=gen).to(dtype)
    if dtype.is_complex:
        return torch.randn(shape, generator=gen, dtype=torch.complex64).to(dtype)
    low = 0 if dtype == torch.uint8 else -9
    return torch.randint(low, 10, shape, generator=gen).to(dtype)


def make_inputs(spec: dict[str, Any]) -> list[Any]:
    """The positional arguments of one trial, in the order the check declares them."""
    gen = torch.Generator().manual_seed(int(spec["seed"]))
    out: list[Any] = []
    for arg in spec["args"].values():
        if "tensor" in arg:
            t = random_tensor([int(n) for n in arg["tensor"]], torch_dtype(arg["dtype"]), gen)
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
