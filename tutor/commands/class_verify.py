"""`tutor class report --verify`: replay every mastering attempt of the exports through the
grader, and mark each mastery that does not reproduce.

An attempt carries its drill, its seed and the answer as given; grading that answer for that seed
again (``tutor.grading.engine.grade``, the tutor's own grading, in the sandbox) must say
``correct``. A hand-written export (an answer marked right that is not, a seed that was never
drawn for it) does not reproduce. A drill this tutor does not load, or whose runtime is not
built here, cannot be replayed, nor judged by a replay that reached no verdict (a timeout, a
sandbox failure): those are listed as not checked, never as reproduced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tutor.content.catalog import Catalog
    from tutor.progress.classreport import Learner
    from tutor.sandbox.pool import SandboxPool


def verify(
    learners: list[Learner],
    catalog: Catalog,
    pool: SandboxPool,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, Any], set[tuple[str, str]]]:
    """``{"checked", "reproduced", "not_reproduced": [...], "not_checked": [...]}`` over every
    mastering attempt (``progress(done, total)`` is told after each replay), and the (learner,
    drill) pairs whose mastery does not hold: none of their mastering attempts reproduced."""
    from tutor.grading.engine import grade
    from tutor.progress.classreport import mastering
    from tutor.sandbox.runtimes import RuntimeNotFound

    todo = [(lr, a) for lr in learners for a in lr.doc.attempts if mastering(a)]
    out: dict[str, Any] = {"checked": 0, "reproduced": 0, "not_reproduced": [], "not_checked": []}
    held: set[tuple[str, str]] = set()
    failed: set[tuple[str, str]] = set()
    for done, (learner, attempt) in enumerate(todo, 1):
        row = {"learner": learner.name, "drill": attempt.drill, "seed": attempt.seed,
               "uid": attempt.uid}  # fmt: skip
        try:
            ref = catalog.drill(attempt.drill)
            box = pool.get(ref.drill.runtime)
        except KeyError:
            out["not_checked"].append({**row, "reason": "the drill is not loaded here (add its "
                                       "pack with --pack)"})  # fmt: skip
            continue
        except RuntimeNotFound as exc:
            out["not_checked"].append({**row, "reason": str(exc)})
            continue
        g = grade(ref, attempt.answer, attempt.seed, box)
        if g.status not in ("correct", "wrong", "invalid"):  # no verdict on the answer
            reason = f"the replay ended {g.status}: {' '.join(g.feedback.split())}"
            out["not_checked"].append({**row, "reason": reason})
            continue
        out["checked"] += 1
        if g.correct:
            out["reproduced"] += 1
            held.add((learner.name, attempt.drill))
        else:
            failed.add((learner.name, attempt.drill))
            out["not_reproduced"].append({**row, "status": str(g.status),
                                          "feedback": " ".join(g.feedback.split())})  # fmt: skip
        if progress is not None:
            progress(done, len(todo))
    return out, failed - held
