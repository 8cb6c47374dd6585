"""Runtime side of the loader lab: iterate a real DataLoader over a real Dataset of N items and
write down each batch's size, the process that made it and when."""

from __future__ import annotations

import time
import warnings
from typing import Any

import torch
from torch.utils.data import DataLoader, Dataset, default_collate, get_worker_info

from tutor.probes.data_loader import (
    MAX_SAMPLES,
    MAX_TIMELINE,
    MAX_WORKERS,
    BatchEvent,
    LoaderRun,
)


class LoaderInputError(ValueError):
    """Options the lab cannot run with; the message says why."""


class Numbered(Dataset[dict[str, Any]]):
    """``n`` samples; sample i is the tensor ``[i, i]``, stamped with who fetched it and when."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> dict[str, Any]:
        info = get_worker_info()
        return {
            "x": torch.full((2,), float(i)),
            "worker": -1 if info is None else info.id,
            "t": time.perf_counter(),
        }


def stamped_collate(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The default collate, plus the time the batch was finished."""
    batch: dict[str, Any] = default_collate(items)
    batch["done"] = time.perf_counter()
    return batch


def loader(
    samples: int = 10, batch: int = 3, drop_last: bool = False, workers: int = 0
) -> LoaderRun:
    """One epoch over ``samples`` items in batches of ``batch`` on ``workers`` processes."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise LoaderInputError(f"samples must be 1 to {MAX_SAMPLES}, not {samples}")
    if not 1 <= batch <= MAX_SAMPLES:
        raise LoaderInputError(f"batch must be 1 to {MAX_SAMPLES}, not {batch}")
    if not 0 <= workers <= MAX_WORKERS:
        raise LoaderInputError(f"workers must be 0 to {MAX_WORKERS}, not {workers}")
    data = DataLoader(
        Numbered(samples),
        batch_size=batch,
        drop_last=drop_last,
        num_workers=workers,
        collate_fn=stamped_collate,
    )
    # the lab's few workers may outnumber the machine's cores; the lab shows that, unwarned
    warnings.filterwarnings("ignore", message="This DataLoader will create")
    sizes: list[int] = []
    timeline: list[BatchEvent] = []
    made_by: dict[int, int] = {}
    t0 = time.perf_counter()
    for k, b in enumerate(data):
        sizes.append(len(b["x"]))
        worker = int(b["worker"][0])
        made_by[worker] = made_by.get(worker, 0) + 1
        if k >= MAX_TIMELINE:
            continue
        timeline.append(
            BatchEvent(
                batch=k,
                worker=worker,
                start_ms=max(0.0, (float(b["t"].min()) - t0) * 1e3),
                end_ms=max(0.0, (float(b["done"]) - t0) * 1e3),
            )
        )
    return LoaderRun(
        samples=samples,
        batch=batch,
        drop_last=drop_last,
        batches=len(sizes),
        full=sum(1 for s in sizes if s == batch),
        last=sizes[-1] if sizes else 0,
        steps_per_epoch=len(data),
        timeline=timeline,
        made_by=made_by,
        workers=workers,
        torch_version=torch.__version__,
    )
