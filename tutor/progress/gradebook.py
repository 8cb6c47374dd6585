"""The gradebook of a class report: one row per learner, one column per drill, and in each cell
the learner's status on the drill (``mastered``, ``tried`` or ``not tried``), their attempts
and the time of their last one.

The columns are every drill someone attempted, and every other drill the instructor's tutor
loads from the same packs (so a drill nobody tried shows as a column of ``not tried``), in the
catalog's order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tutor.progress.store import Attempt
from tutor.progress.transfer import ProgressFile

__all__ = ["STATUSES", "columns", "matrix"]

#: what a cell says, best first (``not reproduced``: ``--verify`` could not replay the mastery)
STATUSES = ("mastered", "not reproduced", "tried", "not tried")


class _Learner(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def doc(self) -> ProgressFile: ...


def columns(attempted: set[str], known: Sequence[str]) -> list[str]:
    """The drills of the gradebook: those attempted, and the known ones of the same packs."""
    packs = {drill.split("/", 1)[0] for drill in attempted}
    listed = [d for d in known if d in attempted or d.split("/", 1)[0] in packs]
    return listed + sorted(attempted - set(listed))


def matrix(
    learners: Sequence[_Learner],
    known: Sequence[str],
    mastering: Callable[[Attempt], bool],
    not_reproduced: set[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """``{"drills": [...], "learners": [{"learner", "mastered", "tried", "cells": {drill:
    {"status", "attempts", "last_attempt"}}}]}``; ``not_reproduced`` holds (learner, drill)
    pairs whose every mastering attempt failed to replay."""
    attempted = {a.drill for lr in learners for a in lr.doc.attempts}
    drills = columns(attempted, known)
    rows = []
    for learner in learners:
        cells: dict[str, dict[str, Any]] = {}
        by_drill: dict[str, list[Attempt]] = {}
        for attempt in learner.doc.attempts:
            by_drill.setdefault(attempt.drill, []).append(attempt)
        for drill in drills:
            mine = by_drill.get(drill, [])
            status = "not tried"
            if any(mastering(a) for a in mine):
                forged = (learner.name, drill) in (not_reproduced or set())
                status = "not reproduced" if forged else "mastered"
            elif mine:
                status = "tried"
            last = max((a.at for a in mine), default=None)
            cells[drill] = {"status": status, "attempts": len(mine),
                            "last_attempt": last.isoformat() if last else None}  # fmt: skip
        counts = [c["status"] for c in cells.values()]
        rows.append({"learner": learner.name, "mastered": counts.count("mastered"),
                     "tried": len(counts) - counts.count("not tried"), "cells": cells})  # fmt: skip
    return {"drills": drills, "learners": rows}
