"""``tutor pack check --trials N --seed S``: sweep many variants of every drill, timing each.

A trial is one variant, the params drawn from one seed (``S`` to ``S+N-1``, then the drill's
``regression_seeds``), graded exactly as a learner's answer is (``engine.grade``):

- predict: ``setup``/``ask`` run without an authoring error, give a truth a learner can type,
  and do not raise on some variants while returning a value on others, unless the drill's
  prompt or explain names the exception (a "the shape, or the error?" drill);
- code and fix: the reference passes; the starter and every ``wrong`` answer fail on at least
  one trial (a wrong answer that passes every variant proves nothing);
- order and choice: no two lines, and no two choices, read the same once rendered; an order
  drill checked by running passes its check in its own right orders on every variant.

Each drill gets its first failing seed (if any) and the time of each trial (one sandbox call
grading the reference, or evaluating the truth): a drill whose slowest trial exceeds its
budget, half the time limit a learner's grading gets, is named as slow.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import partial
from statistics import median
from typing import TYPE_CHECKING, Any

from tutor.content.models import Drill, Pack
from tutor.content.positions import Locator, dotted
from tutor.content.problems import Problem
from tutor.grading.engine import grade, run_call
from tutor.grading.grade import Plan
from tutor.grading.kinds import kind_of
from tutor.grading.kinds.base import DrillRef, Where
from tutor.grading.variants import draw_params, render
from tutor.sandbox.result import RunResult

if TYPE_CHECKING:
    from tutor.sandbox import Sandbox
    from tutor.sandbox.pool import SandboxPool

#: the longest limit of each sandbox limits profile, for the slow-drill budget
_PROFILE_TIMEOUT = {"default": 0.0, "compile": 180.0}

#: what sweeping found: (path within the drill, message)
Found = list[tuple[Where, str]]


@dataclass(frozen=True)
class _Ref:
    full_id: str
    drill: Drill


@dataclass
class DrillSweep:
    """What sweeping one drill found: its first failing seed and the time of each trial."""

    drill: str
    kind: str
    seeds: list[int]
    budget_s: float
    times_ms: list[float] = field(default_factory=list)
    failing_seed: int | None = None
    failure: str = ""

    @property
    def slow(self) -> bool:
        """Whether the slowest trial took longer than the budget."""
        return bool(self.times_ms) and max(self.times_ms) > self.budget_s * 1000

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: times as min/median/max milliseconds (None for drills that need no
        sandbox)."""
        t = self.times_ms
        return {
            "drill": self.drill,
            "kind": self.kind,
            "trials": len(self.seeds),
            "failing_seed": self.failing_seed,
            "failure": self.failure,
            "min_ms": round(min(t), 1) if t else None,
            "median_ms": round(median(t), 1) if t else None,
            "max_ms": round(max(t), 1) if t else None,
            "budget_ms": round(self.budget_s * 1000),
            "slow": self.slow,
        }


def budget_s(drill: Drill) -> float:
    """Half the time limit a learner's grading of ``drill`` gets, in seconds."""
    base = kind_of(drill).timeout
    return max(base, _PROFILE_TIMEOUT.get(drill.limits or "default", 0.0)) / 2


def _where(drill: Drill, seed: int) -> str:
    params = draw_params(drill.params, seed)
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"seed {seed}" + (f" ({shown})" if shown else "")


class DrillTrials:
    """What a kind's ``sweep`` gets for one drill (``kinds.base.Sweep``): every call it makes
    is timed into ``out``, every answer graded through the engine."""

    def __init__(self, ref: DrillRef, out: DrillSweep, sandbox: Sandbox, answers: bool) -> None:
        self.ref, self.out, self.sandbox, self.answers = ref, out, sandbox, answers
        self.seeds = out.seeds

    def where(self, seed: int) -> str:
        return _where(self.ref.drill, seed)

    def timed(self, plan: Plan) -> tuple[RunResult | None, float]:
        start = time.perf_counter()
        result = run_call(plan, self.sandbox)
        ms = (time.perf_counter() - start) * 1000
        self.out.times_ms.append(ms)
        return result, ms

    def passes(self, text: str, seed: int, timed: bool = True) -> tuple[bool, str]:
        answer = render(text, draw_params(self.ref.drill.params, seed))
        start = time.perf_counter()
        g = grade(self.ref, answer, seed, self.sandbox)
        if timed:
            self.out.times_ms.append((time.perf_counter() - start) * 1000)
        return g.correct, g.feedback

    def fail(self, seed: int | None, where: Where, message: str) -> Found:
        self.out.failing_seed, self.out.failure = seed, message
        return [(where, message)]


def sweep_drill(
    ref: DrillRef,
    seeds: list[int],
    sandbox: Sandbox,
    budget: float | None = None,
    answers: bool = True,
) -> tuple[DrillSweep, Found]:
    """Sweep one drill over ``seeds``: its stats and (path within the drill, message) found.
    ``answers=False`` skips proving that the starter and ``wrong`` answers fail."""
    drill = ref.drill
    out = DrillSweep(ref.full_id, drill.kind, list(seeds), budget or budget_s(drill))
    found = kind_of(drill).sweep(DrillTrials(ref, out, sandbox, answers))
    if out.slow:
        why = "--budget" if budget else "half the grading time limit"
        found.append(((), f"slow: a trial took {max(out.times_ms):.0f} ms, over the budget "
                      f"of {out.budget_s * 1000:.0f} ms ({why})"))  # fmt: skip
    return out, found


def sweep_seeds(pack: Pack, drill: Drill, trials: int, seed: int) -> list[int]:
    """``seed`` .. ``seed + trials - 1``, then the drill's and the pack's regression seeds."""
    seeds = list(range(seed, seed + trials))
    return seeds + [s for s in pack.seeds_of(drill) if s not in seeds]


def _box(sandbox: Sandbox | SandboxPool, drill: Drill) -> Sandbox | None:
    """The sandbox of the drill's runtime (None when it cannot be had: the sandbox stage has
    already said why)."""
    from tutor.sandbox.pool import SandboxPool
    from tutor.sandbox.runtimes import RuntimeNotFound

    if not isinstance(sandbox, SandboxPool):
        return sandbox
    try:
        return sandbox.get(drill.runtime)
    except RuntimeNotFound:
        return None


def sweep_pack(
    pack: Pack,
    locator: Locator,
    sandbox: Sandbox | SandboxPool,
    seeds_of: Callable[[Pack, Drill], list[int]],
    *,
    budget: float | None = None,
    answers: bool = True,
    only: Collection[str] | None = None,
    skip: Collection[int] = (),
) -> tuple[list[DrillSweep], list[Problem]]:
    """Sweep the drills of ``pack`` (those whose ids are in ``only``, when given; not those
    at the indices in ``skip``) over the seeds ``seeds_of(pack, drill)`` gives (a drill given
    none is left out): their stats and the problems found."""
    sweeps: list[DrillSweep] = []
    problems: list[Problem] = []
    for i, drill in enumerate(pack.drills):
        seeds = seeds_of(pack, drill)
        if (only is not None and drill.id not in only) or i in skip or not seeds:
            continue
        box = _box(sandbox, drill)
        if box is None:
            continue
        ref = _Ref(pack.full_id(drill), drill)
        stats, found = sweep_drill(ref, seeds, box, budget, answers)
        sweeps.append(stats)
        for rel, message in found:
            path = ("drills", i, *rel)
            line, col = locator.at(path)
            problems.append(Problem(locator.file, line, col, dotted(path), message))
    return sweeps, problems


def _broken(problems: list[Problem], file: str) -> set[int]:
    """Indices of the drills of ``file`` that already have a problem."""
    found = set()
    for p in problems:
        head = p.field.split(".")[0]
        if p.file == file and head.startswith("drills[") and head.endswith("]"):
            found.add(int(head[len("drills[") : -1]))
    return found


def sweep_stage(
    packs: list[Pack],
    sandbox: Sandbox | SandboxPool,
    known: list[Problem],
    *,
    trials: int | None,
    seed: int = 0,
    budget: float | None = None,
) -> tuple[list[DrillSweep], list[Problem]]:
    """What ``tutor pack check`` adds to its sandbox stage: with ``trials``, the full sweep of
    every drill; without, each drill's regression seeds (its reference and truth only).

    Packs written for another torch are left out (the sandbox stage said so), and so are
    drills that already have a problem in ``known``.
    """
    from tutor.content.loader import load_pack_located
    from tutor.content.problems import PackError
    from tutor.grading.packcheck import runtime_torch, skip_reason
    from tutor.sandbox.pool import SandboxPool

    default = sandbox.get() if isinstance(sandbox, SandboxPool) else sandbox
    version = runtime_torch(default) if any(p.torch for p in packs) else None
    sweeps: list[DrillSweep] = []
    problems: list[Problem] = []
    for pack in packs:
        if pack.source is None or skip_reason(pack, version):
            continue
        try:
            pack, locator = load_pack_located(pack.source)
        except PackError:
            continue  # changed since it was checked: the next check reports it
        if trials is None:
            s, p = sweep_pack(pack, locator, sandbox, regression_only, budget=budget,
                              answers=False, skip=_broken(known, locator.file))  # fmt: skip
        else:
            seeds_of = partial(sweep_seeds, trials=trials, seed=seed)
            s, p = sweep_pack(pack, locator, sandbox, seeds_of, budget=budget,
                              skip=_broken(known, locator.file))  # fmt: skip
        sweeps += s
        problems += p
    return sweeps, problems


def regression_only(pack: Pack, drill: Drill) -> list[int]:
    """What a plain ``tutor pack check`` adds: a drill's regression seeds (for a predict drill,
    with the plain seeds 0 to 4 to compare its truths with); none when it has none."""
    pinned = pack.seeds_of(drill)
    if pinned and kind_of(drill).truths:
        return [*range(5), *(s for s in pinned if s >= 5)]
    return pinned
