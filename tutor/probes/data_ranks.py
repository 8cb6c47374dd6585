"""The rank timeline's data: what each of N real gloo ranks held before and after one
collective, when each was busy or waiting, and what went wrong (torch-free)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tutor.probes import lab_defaults as defaults

#: the collectives the lab runs
OPS = defaults.RANKS_OPS
#: how many ranks the lab may start
MIN_WORLD, MAX_WORLD = defaults.RANKS_MIN_WORLD, defaults.RANKS_MAX_WORLD
#: the slow rank's extra work, at most (ms)
MAX_DELAY_MS = defaults.RANKS_MAX_DELAY_MS
#: the collective timeout the lab may set, in seconds
MIN_TIMEOUT_S, MAX_TIMEOUT_S = defaults.RANKS_MIN_TIMEOUT_S, defaults.RANKS_MAX_TIMEOUT_S


def parse_values(text: str) -> list[float]:
    """``"1, 2.5, 3"`` as ``[1.0, 2.5, 3.0]``; ValueError with a sentence saying what is wrong."""
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"values must be numbers separated by commas, not {text!r}") from None


class RanksInputError(ValueError):
    """Options the lab cannot run with; the message says why."""


def check(
    world: int = 4,
    op: str = "all_reduce",
    values: list[float] | None = None,
    slow_rank: int | None = None,
    delay_ms: float = 300.0,
    skip_rank: int | None = None,
    timeout_s: float = 2.0,
) -> dict[str, Any]:
    """Refuse options the lab cannot run, in plain words (the probe, and the lab's screen and
    command before they start any rank); the options as the probe runs them (``values`` None:
    rank r starts from r + 1). The one place the options and their defaults are written."""
    if op not in OPS:
        raise RanksInputError(f"unknown collective {op!r}; choose one of {', '.join(OPS)}")
    if not MIN_WORLD <= world <= MAX_WORLD:
        raise RanksInputError(f"world must be {MIN_WORLD} to {MAX_WORLD} ranks, not {world}")
    if values is not None and len(values) != world:
        raise RanksInputError(f"give one value per rank: {world} values, not {len(values)}")
    for name, rank in (("slow", slow_rank), ("skip", skip_rank)):
        if rank is not None and not 0 <= rank < world:
            raise RanksInputError(f"the {name} rank must be 0 to {world - 1}, not {rank}")
    if not 0 <= delay_ms <= MAX_DELAY_MS:
        raise RanksInputError(f"the delay must be 0 to {MAX_DELAY_MS} ms, not {delay_ms:g}")
    if not MIN_TIMEOUT_S <= timeout_s <= MAX_TIMEOUT_S:
        raise RanksInputError(f"the timeout must be {MIN_TIMEOUT_S} to {MAX_TIMEOUT_S} s")
    starts = [float(v) for v in (values or range(1, world + 1))]
    return {
        "world": world,
        "op": op,
        "values": starts,
        "slow_rank": slow_rank,
        "delay_ms": delay_ms,
        "skip_rank": skip_rank,
        "timeout_s": timeout_s,
    }


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
