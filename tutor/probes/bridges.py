"""The two-bridge ledger's probe (xla runtime only): one model through eager torch, torch_xla's
lazy tensors, torch_xla's StableHLO export and torchax, each output compared with eager's.

torch_xla, torchax and jax are imported inside the call: the runtime imports every probe module
at start-up, and the cpu runtime has none of them.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

from tutor.probes.data_bridges import Bridges, EagerSide, TorchaxSide, XlaSide

#: tolerance of the comparisons with eager (float32 kernels differ in the last bits)
RTOL, ATOL = 1e-4, 1e-5


class Forward(nn.Module):
    """``forward(model, *args)`` as a module, so that export and torchax see one callable."""

    def __init__(self, model: nn.Module, forward: Callable[..., Any]) -> None:
        super().__init__()
        self.model = model
        self.fn = forward

    def forward(self, *args: Any) -> Any:
        return self.fn(self.model, *args)


def _define(code: str) -> tuple[nn.Module, tuple[Any, ...]]:
    scope: dict[str, Any] = {"torch": torch, "nn": nn, "F": F}
    exec(compile(code, "<code>", "exec"), scope)
    model, args = scope.get("model"), scope.get("args")
    if not isinstance(model, nn.Module):
        raise ValueError("CODE must define `model`, an nn.Module")
    if isinstance(args, torch.Tensor):
        args = (args,)
    if not isinstance(args, tuple) or not all(isinstance(a, torch.Tensor) for a in args):
        raise ValueError("CODE must define `args`, a tuple of tensors")
    forward = scope.get("forward") or (lambda m, *a: m(*a))
    return Forward(model, forward).eval(), args


def _same(a: torch.Tensor, b: torch.Tensor) -> bool:
    b = b.to("cpu")
    return a.shape == b.shape and bool(torch.allclose(a, b.to(a.dtype), rtol=RTOL, atol=ATOL))


def _tensor(out: object, where: str) -> torch.Tensor:
    if not isinstance(out, torch.Tensor):
        raise ValueError(f"{where} returned {type(out).__name__}; the ledger compares one tensor")
    return out


def _lazy(model: nn.Module, args: tuple[Any, ...], eager: torch.Tensor) -> dict[str, Any]:
    import torch_xla
    import torch_xla.debug.metrics as met

    device = torch_xla.device()
    met.clear_all()
    moved = copy.deepcopy(model).to(device)
    with torch.no_grad():
        out = _tensor(moved(*(a.to(device) for a in args)), "the model on XLA")
    ir = torch_xla._XLAC._get_xla_tensors_text([out])
    torch_xla.sync()
    result = out.cpu()
    return {
        "output": result.tolist(),
        "matches_eager": _same(eager, result),
        "compiles": int(met.counter_value("UncachedCompile") or 0),
        "ir": ir,
    }


def _export(
    model: nn.Module, args: tuple[Any, ...], eager: torch.Tensor
) -> tuple[str, bool | None]:
    from torch_xla.stablehlo import exported_program_to_stablehlo

    program = exported_program_to_stablehlo(torch.export.export(model, args))
    text = program.get_stablehlo_text()
    try:
        ran = program(*args)
    except Exception:  # noqa: BLE001 - an export that cannot run is reported as None
        return text, None
    ran = ran[0] if isinstance(ran, list | tuple) and len(ran) == 1 else ran
    return text, isinstance(ran, torch.Tensor) and _same(eager, ran)


def _torchax(model: nn.Module, args: tuple[Any, ...], eager: torch.Tensor) -> TorchaxSide:
    import jax
    import jax.numpy as jnp
    import torchax

    weights, fn = torchax.extract_jax(model)
    jargs = tuple(jnp.asarray(a.detach().numpy()) for a in args)
    jitted = jax.jit(fn)
    out = torch.from_numpy(jax.device_get(jitted(weights, jargs)).copy())
    return TorchaxSide(
        output=out.tolist(),
        matches_eager=_same(eager, out),
        stablehlo=jitted.lower(weights, jargs).as_text(),
    )


def bridges(code: str) -> Bridges:
    """Run ``code``'s model through eager torch and both bridges; outputs compared first."""
    os.environ.setdefault("PJRT_DEVICE", "CPU")
    try:
        import torch_xla  # noqa: F401
        import torchax  # noqa: F401
    except ImportError:
        raise RuntimeError(
            "the two-bridge ledger needs torch_xla, which this runtime lacks: it runs on the xla "
            "runtime (build it with `make xla-runtime`)"
        ) from None
    model, args = _define(code)
    with torch.no_grad():
        eager = _tensor(model(*args), "the model").detach()
    lazy = _lazy(model, args, eager)
    stablehlo, export_ok = _export(model, args, eager)
    return Bridges(
        eager=EagerSide(output=eager.tolist()),
        xla=XlaSide(**lazy, stablehlo=stablehlo, export_matches_eager=export_ok),
        torchax=_torchax(model, args, eager),
    )
