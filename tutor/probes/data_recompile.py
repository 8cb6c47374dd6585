"""The recompilation lab's data (torch-free; filled by ``tutor.probes.recompile`` on the xla
runtime): one step per batch size, with torch_xla's compile counters after each step."""

from __future__ import annotations

from pydantic import BaseModel

#: batch sizes a data pipeline without drop_last or bucketing might produce
DEFAULT_SIZES = [32, 32, 17, 32, 9, 32, 17, 25]


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


class Recompile(BaseModel):
    """A loop over changing batch sizes on the XLA device, padded to ``pad_to`` or not."""

    pad_to: int | None
    steps: list[Step]
    distinct_shapes: int
    """How many different input shapes the loop traced."""
