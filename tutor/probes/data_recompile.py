"""The recompilation lab's data (torch-free; filled by ``tutor.probes.recompile`` on the xla
runtime): one step per batch size, with torch_xla's compile counters after each step."""

from __future__ import annotations

from pydantic import BaseModel

from tutor.probes import lab_defaults as defaults

#: batch sizes a data pipeline without drop_last or bucketing might produce
DEFAULT_SIZES = [int(n) for n in defaults.RECOMPILE_SIZES.split(",")]
#: the largest batch the lab accepts
MAX_BATCH = defaults.RECOMPILE_MAX_BATCH
#: the most steps one run of the lab takes
MAX_STEPS = defaults.RECOMPILE_MAX_STEPS


def parse_sizes(text: str) -> list[int]:
    """``"3,5,7,5"`` as ``[3, 5, 7, 5]``; ValueError with a sentence saying what is wrong."""
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise ValueError("give at least one batch size, e.g. 3,5,7,5")
    sizes = []
    for item in items:
        if not item.isdigit():
            raise ValueError(f"{item!r} is not a batch size: give whole numbers, e.g. 3,5,7,5")
        sizes.append(int(item))
    check_sizes(sizes)
    return sizes


def check_sizes(sizes: list[int], pad_to: int | None = None) -> None:
    """ValueError unless every size is 1 to ``MAX_BATCH``, there are 1 to ``MAX_STEPS`` of them
    and ``pad_to`` (if any) holds the largest."""
    if not 1 <= len(sizes) <= MAX_STEPS:
        raise ValueError(f"give 1 to {MAX_STEPS} batch sizes, not {len(sizes)}")
    if any(not 1 <= n <= MAX_BATCH for n in sizes):
        raise ValueError(f"every batch size must be between 1 and {MAX_BATCH}")
    if pad_to is not None and pad_to < max(sizes):
        raise ValueError(f"pad_to={pad_to} is smaller than the largest batch ({max(sizes)})")
    if pad_to is not None and pad_to > MAX_BATCH:
        raise ValueError(f"pad_to must be at most {MAX_BATCH}, not {pad_to}")


class Step(BaseModel):
    """One training-style step: the batch that came in, the shape XLA saw, the counters after."""

    step: int
    batch: int
    shape: list[int]
    """The input shape the XLA graph was traced with (after padding, if any)."""
    uncached_compiles: int
    """Graphs compiled so far (torch_xla's ``UncachedCompile`` counter)."""
    cached_compiles: int
    """Graphs found in the compile cache so far (``CachedCompile``)."""
    loss: float
    """The step's loss: the mean over the real rows (padding rows weigh nothing)."""


class Recompile(BaseModel):
    """A loop over changing batch sizes on the XLA device, padded to ``pad_to`` or not."""

    pad_to: int | None
    steps: list[Step]
    distinct_shapes: int
    """How many different input shapes the loop traced."""
