"""The recompilation lab's probe (xla runtime only): a loss per batch size on the XLA device,
counting compiles after each ``torch_xla.sync()``. Every new input shape is a new graph and a new
compile; padding every batch to one size leaves one graph, compiled once and then cached."""

from __future__ import annotations

import os

import torch
from torch import nn

from tutor.probes.data_recompile import Recompile, Step, check_sizes


def recompile(sizes: list[int], pad_to: int | None = None, features: int = 8) -> Recompile:
    """Run one forward step (loss of a batch) per batch size in ``sizes``; pad to ``pad_to``."""
    check_sizes(sizes, pad_to)
    os.environ.setdefault("PJRT_DEVICE", "CPU")
    try:
        import torch_xla
        import torch_xla.debug.metrics as met
    except ImportError:
        raise RuntimeError(
            "the recompilation lab needs torch_xla, which this runtime lacks: it runs on the xla "
            "runtime (build it with `make xla-runtime`)"
        ) from None
    device = torch_xla.device()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(features, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    torch_xla.sync()
    met.clear_all()
    steps = []
    for i, n in enumerate(sizes):
        x, y = torch.randn(n, features), torch.randn(n, 1)
        weight = torch.ones(n, 1)
        if pad_to is not None:  # pad, and give the padding rows no weight in the loss
            extra = pad_to - n
            x = torch.cat([x, torch.zeros(extra, features)])
            y = torch.cat([y, torch.zeros(extra, 1)])
            weight = torch.cat([weight, torch.zeros(extra, 1)])
        x, y, weight = x.to(device), y.to(device), weight.to(device)
        with torch.no_grad():  # divided by a tensor: a Python 1 would be a constant in the graph
            loss = (weight * (model(x) - y) ** 2).sum() / weight.sum()
        torch_xla.sync()  # cut the graph here: compile it (or find it in the cache) and run it
        steps.append(
            Step(
                step=i,
                batch=n,
                shape=list(x.shape),
                uncached_compiles=int(met.counter_value("UncachedCompile") or 0),
                cached_compiles=int(met.counter_value("CachedCompile") or 0),
                loss=loss.item(),  # the graph ran at the sync: reading it compiles nothing
            )
        )
    return Recompile(
        pad_to=pad_to, steps=steps, distinct_shapes=len({tuple(s.shape) for s in steps})
    )
