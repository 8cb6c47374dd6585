"""Probe of the parameter & memory ledger: build the learner's module and count what it owns.

The module is built on the ``meta`` device, so even a huge model costs no memory: parameters
have shapes but no storage. The activations are measured with forward hooks during a real
forward pass of a meta input of the learner's batch size.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

import torch
from torch import nn
from torch.nn import functional as F

from tutor.probes.data_ledger import DTYPES, FORMULAS, Buffer, Layer, Ledger

MAX_LAYERS = 400
DTYPE_OF = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int8": torch.int8,
}


def build(code: str) -> nn.Module:
    """Run ``code`` (``torch``, ``nn``, ``F`` in scope) on the meta device; its last line is the module."""
    try:
        tree = ast.parse(code, "<module>")
    except SyntaxError as err:
        raise ValueError(f"syntax error on line {err.lineno}: {err.msg}") from None
    if not tree.body:
        raise ValueError("type an expression that builds a module, e.g. nn.Linear(4, 3)")
    last = tree.body[-1]
    if isinstance(last, ast.Expr):
        tree.body[-1] = ast.Assign(targets=[ast.Name("_module", ast.Store())], value=last.value)
        target = "_module"
    elif isinstance(last, ast.Assign) and isinstance(last.targets[0], ast.Name):
        target = last.targets[0].id
    else:
        raise ValueError("the last line must be an expression that builds the module")
    ast.fix_missing_locations(tree)
    ns: dict[str, object] = {"torch": torch, "nn": nn, "F": F, "__name__": "__ledger__"}
    with torch.device("meta"):
        exec(compile(tree, "<module>", "exec"), ns)
    module = ns[target]
    if not isinstance(module, nn.Module):
        raise TypeError(
            f"the last line gives a value of type {type(module).__name__}, not an nn.Module"
        )
    return module


def _arithmetic(module: nn.Module) -> str:
    """This module's parameter count written as the formula with its numbers."""
    own = dict(module.named_parameters(recurse=False))
    if not own:
        return ""
    bias = " + {}".format(own["bias"].numel()) if own.get("bias") is not None else ""
    if isinstance(module, nn.Linear):
        return f"{module.in_features}·{module.out_features}{bias}"
    if isinstance(module, nn.modules.conv._ConvNd):
        dims = "·".join(str(k) for k in module.kernel_size)
        return f"{module.in_channels // module.groups}·{module.out_channels}·{dims}{bias}"
    return " + ".join("·".join(str(d) for d in p.shape) or "1" for p in own.values())


def layer_has_children(module: nn.Module) -> bool:
    """Whether ``module`` is a container (has submodules)."""
    return any(True for _ in module.children())


def _subtree(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


def _layers(model: nn.Module) -> tuple[list[Layer], dict[nn.Module, Layer], int]:
    layers: list[Layer] = []
    by_module: dict[nn.Module, Layer] = {}
    modules = list(model.named_modules())
    for name, module in modules[:MAX_LAYERS]:
        kind = type(module).__name__
        own = dict(module.named_parameters(recurse=False))
        layer = Layer(
            name=name,
            kind=kind,
            depth=0 if not name else name.count(".") + 1,
            params=sum(p.numel() for p in own.values()),
            subtree=_subtree(module),
            formula=FORMULAS.get(
                kind, "no parameters" if not (own or layer_has_children(module)) else ""
            ),
            arithmetic=_arithmetic(module),
            shapes={n: list(p.shape) for n, p in own.items()},
            buffers=[
                Buffer(
                    name=n,
                    shape=list(b.shape),
                    numel=b.numel(),
                    dtype=str(b.dtype).removeprefix("torch."),
                    bytes=b.numel() * b.element_size(),
                )
                for n, b in module.named_buffers(recurse=False)
                if b is not None
            ],
        )
        layers.append(layer)
        by_module[module] = layer
    return layers, by_module, max(0, len(modules) - MAX_LAYERS)


def _guess_input(model: nn.Module) -> tuple[list[int], torch.dtype] | None:
    """One sample's shape, read off the first layer that has parameters."""
    for module in model.modules():
        if isinstance(module, nn.Linear):
            return [module.in_features], torch.float32
        if isinstance(module, nn.Conv1d):
            return [module.in_channels, 64], torch.float32
        if isinstance(module, nn.Conv2d):
            return [module.in_channels, 28, 28], torch.float32
        if isinstance(module, nn.Embedding):
            return [16], torch.long
        if any(True for _ in module.parameters(recurse=False)):
            return None
    return None


def _measure(
    model: nn.Module,
    by_module: dict[nn.Module, Layer],
    batch: int,
    shape: list[int],
    dtype: torch.dtype,
) -> tuple[int, int]:
    """Run a forward pass of a meta batch; record every leaf module's output. -> (numel, bytes)."""
    totals = [0, 0]

    def hook(module: nn.Module, _inputs: object, output: object) -> None:
        if not isinstance(output, torch.Tensor) or module not in by_module:
            return
        layer = by_module[module]
        layer.output_shape = list(output.shape)
        layer.output_bytes = output.numel() * output.element_size()
        totals[0] += output.numel()
        totals[1] += layer.output_bytes

    leaves = [m for m in model.modules() if not layer_has_children(m)]
    handles = [m.register_forward_hook(hook) for m in leaves]
    try:
        model(torch.empty([batch, *shape], dtype=dtype, device="meta"))
    finally:
        for handle in handles:
            handle.remove()
    return totals[0], totals[1]


def ledger(code: str, batch: int = 64, input_shape: Sequence[int] | None = None) -> Ledger:
    """Count the parameters, buffers, bytes and activations of the module ``code`` builds."""
    torch.set_num_threads(1)
    if batch < 1:
        raise ValueError(f"the batch size must be at least 1, not {batch}")
    model = build(code)
    layers, by_module, truncated = _layers(model)
    params = list(model.parameters())
    total = sum(p.numel() for p in params)
    buffers = list(model.buffers())
    sizes = {name: torch.empty((), dtype=DTYPE_OF[name]).element_size() for name in DTYPES}
    result = Ledger(
        kind=type(model).__name__,
        layers=layers,
        truncated=truncated,
        total=total,
        trainable=sum(p.numel() for p in params if p.requires_grad),
        buffers=sum(b.numel() for b in buffers),
        buffer_bytes=sum(b.numel() * b.element_size() for b in buffers),
        element_size=sizes,
        bytes={name: total * size for name, size in sizes.items()},
        grad_bytes=total * sizes["float32"],
        adam_bytes=2 * total * sizes["float32"],
        batch=batch,
    )
    guess = _guess_input(model)
    if input_shape:
        shape = [int(d) for d in input_shape]
        dtype = guess[1] if guess else torch.float32
    elif guess is not None:
        shape, dtype = guess
    else:
        result.activation_note = "give the input shape of one sample to measure activations"
        return result
    result.input_shape = shape
    sample = torch.empty([batch, *shape], dtype=dtype, device="meta")
    result.input_bytes = sample.numel() * sample.element_size()
    model.train()
    try:
        result.activations, result.activation_bytes = _measure(
            model, by_module, batch, shape, dtype
        )
    except Exception as err:  # the learner's model rejected the input: say why, keep the counts
        result.activation_note = f"forward failed: {type(err).__name__}: {err}".splitlines()[0]
    return result
