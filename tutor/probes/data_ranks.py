"""The rank timeline's data: what each of N real gloo ranks held before and after one
collective, when each was busy or waiting, and what went wrong (torch-free)."""

from __future__ import annotations

from pydantic import BaseModel

#: the collectives the lab runs
OPS = ("all_reduce", "all_gather", "broadcast", "reduce_scatter")
#: how many ranks the lab may start
MIN_WORLD, MAX_WORLD = 2, 4
#: the slow rank's extra work, at most (ms)
MAX_DELAY_MS = 2000
#: the collective timeout the lab may set, in seconds
MIN_TIMEOUT_S, MAX_TIMEOUT_S = 0.5, 5.0


class RankEvent(BaseModel):
    """One stretch of one rank's time, in milliseconds since the ranks were started."""

    rank: int
    event: str
    """``join`` (init_process_group), ``work`` (before the collective), the op's name (inside
    the collective, waiting included), or ``skipped`` (a rank that never called it)."""
    start_ms: float
    end_ms: float


class Ranks(BaseModel):
    """The result of one collective on ``world`` gloo ranks."""

    world: int
    op: str
    values: list[float]
    """Each rank's starting number (rank r holds ``values[r]``)."""
    before: list[list[float]]
    """Each rank's tensor just before the collective."""
    after: list[list[float]]
    """Each rank's tensor after it (unchanged where the rank failed or skipped)."""
    timeline: list[RankEvent]
    errors: list[str | None]
    """What the collective raised on each rank (None: it returned)."""
    waited_ms: list[float | None]
    """Time each rank spent inside the collective (None: it never entered)."""
    last_to_arrive: int | None
    """The rank that entered the collective last: everyone else waited for it."""
    slow_rank: int | None = None
    delay_ms: float = 0.0
    skip_rank: int | None = None
    timeout_s: float = 2.0
    explanation: str = ""
    """One plain paragraph: what the collective did, who waited for whom, or why it hung."""
    backend: str = "gloo"
    torch_version: str = ""
