"""The training-run lab's probe: a real run on the shipped digits, with checkpoint and resume.

Everything a run needs to continue exactly where it stopped travels in one checkpoint: model,
optimizer, scheduler, both random number generators (torch's global one and the loader's), the
epoch and the config that built the model. The checkpoint comes back as bytes (base64) and can be
handed in again; loading it uses ``weights_only=True``.
"""

from __future__ import annotations

import base64
import io
import time
from typing import Any, cast

import torch
from torch import nn
from torch.nn import functional as F
from torch.utils.data import DataLoader

from tutor.probes.data_train import (
    BACKENDS,
    DEFAULT_CONFIG,
    MAX_EPOCHS,
    CheckpointInfo,
    DatasetInfo,
    Epoch,
    TrainRun,
)
from tutor.probes.digits import DigitsDataset

#: what a config may set besides ``model``, with the values used when it does not
DEFAULTS = {"lr": 0.05, "batch_size": 32, "momentum": 0.9, "gamma": 0.7}


def build(config: str) -> tuple[nn.Module, dict[str, Any]]:
    """Run the config code; its ``model`` and settings (checked, with defaults filled in)."""
    scope: dict[str, Any] = {"torch": torch, "nn": nn, "F": F}
    exec(compile(config, "<config>", "exec"), scope)
    model = scope.get("model")
    if not isinstance(model, nn.Module):
        raise ValueError("the config must define `model`, an nn.Module")
    settings = {key: scope.get(key, value) for key, value in DEFAULTS.items()}
    if not isinstance(settings["batch_size"], int) or settings["batch_size"] < 1:
        raise ValueError(f"batch_size must be a positive int, not {settings['batch_size']!r}")
    for key in ("lr", "momentum", "gamma"):
        if not isinstance(settings[key], int | float) or settings[key] < 0:
            raise ValueError(f"{key} must be a non-negative number, not {settings[key]!r}")
    with torch.no_grad():
        out = model(torch.zeros(2, 64))
    if tuple(out.shape) != (2, 10):
        raise ValueError(
            f"the model must map a batch of shape (B, 64) to (B, 10) logits; "
            f"(2, 64) gave {tuple(out.shape)}"
        )
    return model, settings


def _device(backend: str) -> torch.device:
    if backend != "xla":
        return torch.device("cpu")
    try:
        import torch_xla
    except ImportError:
        raise RuntimeError(
            "the xla backend needs torch_xla, which this runtime lacks: it runs on the xla "
            "runtime (build it with `make xla-runtime`)"
        ) from None
    device: torch.device = torch_xla.device()
    return device


def _sync(backend: str) -> None:
    if backend == "xla":
        import torch_xla

        torch_xla.sync()


def _evaluate(
    model: nn.Module,
    loader: DataLoader[tuple[torch.Tensor, torch.Tensor]],
    device: torch.device,
) -> float:
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x.to(device)).argmax(dim=1).cpu()
            correct += int((pred == y).sum())
            total += len(y)
    model.train()
    return correct / total


def _to_cpu(obj: Any) -> Any:
    if isinstance(obj, torch.Tensor):
        return obj.detach().cpu()
    if isinstance(obj, dict):
        return {k: _to_cpu(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return type(obj)(_to_cpu(v) for v in obj)
    return obj


def train(
    config: str | None = None,
    epochs: int = 3,
    backend: str = "eager",
    state: str | None = None,
    seed: int = 0,
) -> TrainRun:
    """Train ``epochs`` more epochs (from ``state``, a checkpoint, or from scratch with ``seed``)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if not 1 <= epochs <= MAX_EPOCHS:
        raise ValueError(f"epochs must be between 1 and {MAX_EPOCHS}, not {epochs}")
    saved = None
    if state is not None:
        saved = torch.load(io.BytesIO(base64.b64decode(state)), weights_only=True)
        if config is not None and config != saved["config"]:
            raise ValueError("the checkpoint was saved from a different config; start a fresh run")
        config = saved["config"]
    config = DEFAULT_CONFIG if config is None else config

    torch.manual_seed(seed)
    model, settings = build(config)
    device = _device(backend)
    model.to(device)
    optimizer = torch.optim.SGD(
        model.parameters(), lr=settings["lr"], momentum=settings["momentum"]
    )
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=settings["gamma"])
    loader_rng = torch.Generator().manual_seed(seed)
    start = 0
    if saved is not None:
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        scheduler.load_state_dict(saved["scheduler"])
        torch.set_rng_state(saved["rng"]["torch"])
        loader_rng.set_state(saved["rng"]["loader"])
        start = saved["epoch"]

    train_set, test_set = DigitsDataset("train"), DigitsDataset("test")
    loader = DataLoader(
        train_set, batch_size=settings["batch_size"], shuffle=True, generator=loader_rng
    )
    test_loader = DataLoader(test_set, batch_size=len(test_set))
    step_model = cast(nn.Module, torch.compile(model)) if backend == "compile" else model

    done: list[Epoch] = []
    steps: list[float] = []
    for epoch in range(start + 1, start + epochs + 1):
        began = time.perf_counter()
        lr = optimizer.param_groups[0]["lr"]
        losses = []
        for x, y in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(step_model(x.to(device)), y.to(device))
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            _sync(backend)
            losses.append(loss.detach())
        scheduler.step()
        epoch_losses = torch.stack(losses).cpu().tolist()
        accuracy = _evaluate(step_model, test_loader, device)
        seconds = time.perf_counter() - began
        steps += epoch_losses
        done.append(
            Epoch(
                epoch=epoch,
                train_loss=sum(epoch_losses) / len(epoch_losses),
                test_accuracy=accuracy,
                seconds=seconds,
                lr=lr,
            )
        )

    checkpoint = {
        "epoch": start + epochs,
        "model": _to_cpu(model.state_dict()),
        "optimizer": _to_cpu(optimizer.state_dict()),
        "scheduler": scheduler.state_dict(),
        "rng": {"torch": torch.get_rng_state(), "loader": loader_rng.get_state()},
        "config": config,
    }
    buffer = io.BytesIO()
    torch.save(checkpoint, buffer)
    blob = buffer.getvalue()
    return TrainRun(
        dataset=DatasetInfo(name="digits", train=len(train_set), test=len(test_set)),
        backend=backend,
        params=sum(p.numel() for p in model.parameters() if p.requires_grad),
        model=repr(model),
        epochs=done,
        steps=steps,
        checkpoint=CheckpointInfo(
            epoch=start + epochs,
            bytes=len(blob),
            keys=list(checkpoint),
            resumed_from=start if saved is not None else None,
        ),
        state=base64.b64encode(blob).decode("ascii"),
    )
