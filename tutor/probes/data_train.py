"""The training-run lab's data (torch-free; filled by ``tutor.probes.train``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from tutor.probes import lab_defaults as defaults

#: the run's configuration as the learner edits it: code that defines ``model`` and may set
#: ``lr``, ``batch_size``, ``momentum`` and ``gamma`` (the learning rate's decay per epoch)
DEFAULT_CONFIG = defaults.TRAIN_CONFIG

#: the backends a run can use
BACKENDS = defaults.TRAIN_BACKENDS
#: the most epochs one run may train
MAX_EPOCHS = defaults.TRAIN_MAX_EPOCHS


def limits_for(epochs: int = 3, backend: str = "eager", **_: object) -> dict[str, object]:
    """The sandbox limits of a run of ``epochs`` (the lab row's ``limits_for``): seconds for
    each epoch on top of the start, and compiling's own up front under the ``compile``
    profile; the ``xla`` backend runs on the xla runtime."""
    if backend == "compile":
        return {"timeout": 300.0 + 15.0 * epochs, "profile": "compile"}
    changes: dict[str, object] = {"timeout": 30.0 + 15.0 * epochs}
    if backend == "xla":
        changes["runtime"] = "xla"
    return changes


class DatasetInfo(BaseModel):
    """Which data the run used and how it was split."""

    name: str
    train: int
    test: int


class Epoch(BaseModel):
    """One epoch: mean training loss, accuracy on the held-out test set, wall time."""

    epoch: int
    train_loss: float
    test_accuracy: float
    seconds: float
    """Wall time of the epoch's training and evaluation, measured in the sandbox (this machine)."""
    lr: float = Field(description="the learning rate the epoch trained with")


class CheckpointInfo(BaseModel):
    """The checkpoint written after the last epoch (and where the run started from)."""

    epoch: int
    bytes: int
    keys: list[str]
    """Top-level keys of the saved dictionary."""
    resumed_from: int | None
    """The epoch of the checkpoint the run resumed from; None for a fresh run."""
    path: str | None = None
    """Where the headless command stored it (filled outside the sandbox)."""


class TrainRun(BaseModel):
    """A real training run on the digits: per-epoch results, per-step losses, the checkpoint."""

    dataset: DatasetInfo
    backend: str
    params: int
    """Number of trainable parameters of the model."""
    model: str
    """``repr`` of the model the config built."""
    epochs: list[Epoch]
    steps: list[float]
    """The loss of every training step of this run, in order."""
    checkpoint: CheckpointInfo
    state: str
    """The checkpoint itself (``torch.save`` bytes, base64): hand it back to resume."""

    def contract(self) -> dict[str, Any]:
        """The ``tutor lab train --json`` object."""
        return {
            "dataset": self.dataset.model_dump(),
            "epochs": [e.model_dump(exclude={"lr"}) for e in self.epochs],
            "checkpoint": self.checkpoint.model_dump(),
        }
