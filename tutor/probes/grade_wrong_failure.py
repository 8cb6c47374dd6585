"""Which of a drill's ``wrong`` answers a learner's answer fails like, where no trial tells
(runtime side, in the judge).

A check with ``call`` compares outputs trial by trial (``grade_code._matched``). An answer that
raises before any trial, or a check that is only an ``assert``, has no trial to compare, so the
failure itself is compared: each ``wrong`` answer with feedback is run here, in the judge, as
the learner's process runs an answer (a fresh namespace, the RNG seeded with the attempt's seed,
``setup`` then the code, compiled under the learner's file name), then the ``assert``. The
learner's answer fails like that wrong answer when it failed at the same stage (the code
raised, or the check failed) with the same exception type and the same message, and no other
wrong answer with feedback fails that way too. The ``wrong`` answers are
the drill's own code: the judge may run them, as it runs the reference.

Matching stops once the judge has used half its time, so a mistake's feedback never costs a
verdict. An outcome is kept for the life of the process, keyed by everything that decides it, so a
``tutor pack check`` that grades every wrong answer on the same seeds runs each one once.
"""

from __future__ import annotations

import resource
import time
from typing import Any

from tutor.probes.grade_assert import GUARDS, guarded
from tutor.probes.grade_run import describe_error, fresh_namespace, manual_seed, run_code

__all__ = ["matched_failure", "outcome"]

#: (setup, code, assert, seed) -> how it failed: (stage, type, message), or None
_SEEN: dict[tuple[str, str, str, int], tuple[str, str, str] | None] = {}
_KEPT = 256


def outcome(setup: str, code: str, assert_code: str, seed: int) -> tuple[str, str, str] | None:
    """How ``code`` fails after ``setup``: ``("answer", type, message)`` when it raises itself,
    ``("assert", type, message)`` when the ``assert`` (may be "") then fails, None when it
    passes (or ``setup`` raises: a broken drill, told elsewhere)."""
    key = (setup, code, assert_code, seed)
    if key in _SEEN:
        return _SEEN[key]
    found: tuple[str, str, str] | None = None
    ns = fresh_namespace()
    manual_seed(seed)
    try:
        run_code(setup, ns, "<setup>")
    except (Exception, SystemExit):
        return None
    try:
        run_code(code, ns, "<answer>")
    except (Exception, SystemExit) as exc:
        error = describe_error(exc, "<answer>")
        found = ("answer", error["type"], error["message"])
    else:
        if assert_code:
            ns.update(GUARDS)
            manual_seed(seed)
            try:
                exec(guarded(assert_code, "<assert>"), ns)
            except (Exception, SystemExit) as exc:
                error = describe_error(exc, "<assert>")
                found = ("assert", error["type"], error["message"])
    if len(_SEEN) >= _KEPT:
        _SEEN.clear()
    _SEEN[key] = found
    return found


def matched_failure(kw: dict[str, Any], stage: str, error: dict[str, Any]) -> int | None:
    """The index of the ``wrong`` answer (``kw["wrongs"]``: "" for one without feedback) that
    fails at the same ``stage`` (``answer``: the code raised; ``assert``: the check failed) with
    the same exception type and message as the learner's (``error``), or None: when none does,
    when two or more do (the failure does not tell which mistake was made, and one's feedback
    would mislead the other), or when time ran out before every one was tried."""
    mine = (stage, error.get("type"), error.get("message"))
    alike = []
    for j, code in enumerate(kw.get("wrongs") or []):
        if not code:
            continue
        if not _time_left(kw.get("started")):
            return None  # not every mistake was tried: one that fails alike may be left
        if outcome(kw["setup"], code, kw.get("assert_code") or "", kw["seed"]) == mine:
            alike.append(j)
    return alike[0] if len(alike) == 1 else None


def _time_left(started: float | None) -> bool:
    """Whether the judge has used less than half its time (the run's CPU limit, which the
    sandbox derives from its wall-clock limit): past that, no more wrong answers are run, so
    that telling a mistake never turns a wrong answer into a timeout."""
    budget = resource.getrlimit(resource.RLIMIT_CPU)[0]
    if budget == resource.RLIM_INFINITY or budget <= 0:
        return True
    usage = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter() - started if started is not None else 0.0
    return max(usage.ru_utime + usage.ru_stime, wall) < budget / 2
