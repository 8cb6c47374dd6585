"""The loader lab's data: how a real DataLoader cut N samples into batches, and which process
made each batch when (torch-free)."""

from __future__ import annotations

from pydantic import BaseModel

from tutor.probes import lab_defaults as defaults

#: the most samples the lab will load
MAX_SAMPLES = defaults.LOADER_MAX_SAMPLES
#: the most worker processes the lab will start
MAX_WORKERS = defaults.LOADER_MAX_WORKERS
#: the most batches the timeline keeps (the first ones); the counts cover every batch
MAX_TIMELINE = 400


class BatchEvent(BaseModel):
    """One batch: who made it and when, in milliseconds since the loop started."""

    batch: int
    worker: int
    """The worker id that made it, -1 for the main process."""
    start_ms: float
    end_ms: float


class LoaderRun(BaseModel):
    """One epoch of ``DataLoader(dataset_of_samples, batch_size=batch, ...)``."""

    samples: int
    batch: int
    drop_last: bool
    batches: int
    """How many batches the epoch yielded."""
    full: int
    """How many of them held ``batch`` samples."""
    last: int
    """The size of the last batch (0: there was none)."""
    steps_per_epoch: int
    """``len(loader)``: the optimizer steps one epoch gives."""
    timeline: list[BatchEvent]
    """The first ``MAX_TIMELINE`` batches, in order."""
    made_by: dict[int, int] = {}
    """How many batches each process made (worker id, -1 for the main process), every batch."""
    workers: int = 0
    torch_version: str = ""
