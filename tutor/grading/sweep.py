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
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from pydantic import TypeAdapter, ValidationError

from tutor.content.models import ChoiceDrill, CodeDrill, Drill, OrderDrill, Pack, PredictDrill
from tutor.content.positions import Locator, dotted
from tutor.content.problems import Problem
from tutor.grading import order, order_check
from tutor.grading.engine import CODE_TIMEOUT, PREDICT_TIMEOUT, grade, plan, run_call
from tutor.grading.mistakes import truth_problems
from tutor.grading.variants import draw_params, render, render_prose
from tutor.probes.data_grading import PredictAuthoring, PredictData

if TYPE_CHECKING:
    from tutor.sandbox import Sandbox
    from tutor.sandbox.pool import SandboxPool

_PREDICT: TypeAdapter[PredictData] = TypeAdapter(PredictData)
#: the longest limit of each sandbox limits profile, for the slow-drill budget
_PROFILE_TIMEOUT = {"default": 0.0, "compile": 180.0}


_P = ParamSpec("_P")
_T = TypeVar("_T")

#: a path within a drill: ("wrong", 0, "ask")
_Path = tuple[str | int, ...]
#: what sweeping found: (path within the drill, message)
Found = list[tuple[_Path, str]]


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
    base = PREDICT_TIMEOUT if isinstance(drill, PredictDrill) else CODE_TIMEOUT
    return max(base, _PROFILE_TIMEOUT.get(drill.limits or "default", 0.0)) / 2


def _where(drill: Drill, seed: int) -> str:
    params = draw_params(drill.params, seed)
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"seed {seed}" + (f" ({shown})" if shown else "")


def _timed(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> tuple[_T, float]:
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, (time.perf_counter() - start) * 1000


def _truth(ref: _Ref, seed: int, sandbox: Sandbox) -> tuple[str, str, float, _Path]:
    """One predict variant: (``value`` | exception name | ``!`` when broken (``!!``: the
    message names the variant), message, ms, the path of what is broken inside the drill)."""
    p = plan(ref, "", seed)
    result, ms = _timed(run_call, p, sandbox)
    ask: _Path = ("ask",)
    if result is None:
        return "!", "setup/ask made no sandbox call", ms, ask
    if str(result.status) != "ok":
        return "!", f"setup/ask did not finish: {result.status} {result.reason}".rstrip(), ms, ask
    try:
        data = _PREDICT.validate_python(result.value)
    except ValidationError as exc:
        return "!", f"the probe sent data that cannot be read: {exc.errors()[0]['msg']}", ms, ask
    if isinstance(data, PredictAuthoring):
        err = data.error
        return "!", f"{data.field} raised {err.type}: {err.message}", ms, ask
    truth = data.value.model_dump()
    if truth["type"] == "other":
        return "!", f"ask returns a {truth.get('pytype')}, which a learner cannot type", ms, ask
    if truth["type"] == "tensor" and truth.get("values") is None:
        return (
            "!",
            f"ask returns a tensor of {truth.get('numel')} elements, too many to type",
            ms,
            ask,
        )
    assert isinstance(ref.drill, PredictDrill)
    where = _where(ref.drill, seed)
    for path, message, severity, _ in truth_problems(ref.drill, data.model_dump(), where):
        if severity == "error":  # the message names the variant already
            return "!!", message, ms, path
    if truth["type"] == "exception":
        return str(truth["name"]), str(truth.get("message", "")), ms, ask
    return "value", "", ms, ask


def _sweep_predict(ref: _Ref, drill: PredictDrill, out: DrillSweep, sandbox: Sandbox) -> Found:
    seen: dict[tuple[str, ...], tuple[str, str, _Path]] = {}
    raised: dict[str, int] = {}  # exception name -> first seed
    valued: int | None = None
    for seed in out.seeds:
        params = draw_params(drill.params, seed)
        key = (drill.setup_code(params), render(drill.ask, params),
               *(render(w.ask, params) for w in drill.wrong))  # fmt: skip
        if key not in seen:  # the truth depends on the rendered code only
            outcome, message, ms, path = _truth(ref, seed, sandbox)
            out.times_ms.append(ms)
            seen[key] = (outcome, message, path)
        outcome, message, path = seen[key]
        if outcome in ("!", "!!"):
            where = "" if outcome == "!!" else f" on {_where(drill, seed)}"
            out.failing_seed, out.failure = seed, f"{message}{where}"
            return [(path, out.failure)]
        if outcome == "value":
            valued = seed if valued is None else valued
        else:
            raised.setdefault(outcome, seed)
    meant = drill.prompt + drill.explain  # "the shape, or the error?" drills name the error
    unnamed = {name: seed for name, seed in raised.items() if name not in meant}
    if unnamed and valued is not None:
        name, seed = min(unnamed.items(), key=lambda kv: kv[1])
        out.failing_seed = seed
        out.failure = (
            f"ask raises {name} on {_where(drill, seed)} but returns a value on "
            f"{_where(drill, valued)}: narrow the params (if the error is the point, name "
            f"{name} in the drill's explain)"
        )
        return [(("ask",), out.failure)]
    return []


def _passes(ref: _Ref, text: str, seed: int, sandbox: Sandbox) -> tuple[bool, str, float]:
    answer = render(text, draw_params(ref.drill.params, seed))
    g, ms = _timed(grade, ref, answer, seed, sandbox)
    return g.correct, g.feedback, ms


def _sweep_code(
    ref: _Ref, drill: CodeDrill, out: DrillSweep, sandbox: Sandbox, answers: bool
) -> Found:
    for seed in out.seeds:
        ok, feedback, ms = _passes(ref, drill.reference, seed, sandbox)
        out.times_ms.append(ms)
        if not ok:
            out.failing_seed = seed
            out.failure = f"the reference fails on {_where(drill, seed)}: {feedback}"
            return [(("reference",), out.failure)]
    found: Found = []
    if not answers:
        return found
    tried: list[tuple[tuple[str | int, ...], str, str]] = [
        (("starter",), drill.starter, "the starter")
    ]
    tried += [(("wrong", j), w, f"wrong[{j}]") for j, w in enumerate(_wrong_texts(drill))]
    for path, text, name in tried:
        if not any(not _passes(ref, text, seed, sandbox)[0] for seed in out.seeds):
            found.append((path, f"{name} passes on every one of {len(out.seeds)} trials; "
                          "it must fail on at least one"))  # fmt: skip
    return found


def _wrong_texts(drill: CodeDrill) -> list[str]:
    """The code of each ``wrong`` entry (a string, or an entry with ``code``)."""
    return [w if isinstance(w, str) else w.code for w in drill.wrong]


def _twins(raw: list[str], texts: list[str]) -> tuple[int, int] | None:
    """Two texts that read the same once rendered though written differently (texts written
    alike on purpose are the author's choice)."""
    first: dict[str, int] = {}
    for i, text in enumerate(texts):
        key = " ".join(text.split())
        if key in first and raw[first[key]] != raw[i]:
            return first[key], i
        first.setdefault(key, i)
    return None


def _sweep_static(drill: OrderDrill | ChoiceDrill, out: DrillSweep) -> Found:
    for seed in out.seeds:
        params = draw_params(drill.params, seed)
        if isinstance(drill, OrderDrill):
            rendered = [render(x, params) for x in drill.lines]
            twins, field_, what = _twins(drill.lines, rendered), "lines", "lines"
        else:
            raw = [c.answer for c in drill.choices]
            texts = [render_prose(x, params) for x in raw]
            twins, field_, what = _twins(raw, texts), "choices", "choices"
        if twins is not None:
            i, j = twins
            out.failing_seed = seed
            out.failure = (f"{what} {i} and {j} read the same on {_where(drill, seed)}; "
                           "a learner cannot tell them apart")  # fmt: skip
            return [((field_, j), out.failure)]
    return []


def _sweep_run(drill: OrderDrill, out: DrillSweep, sandbox: Sandbox) -> Found:
    """An order drill checked by running: its right orders pass on every variant."""
    for run in order_check.runs(drill, out.seeds):
        if not run.must_pass:
            continue
        result, ms = _timed(sandbox.call, order.TARGET, timeout=CODE_TIMEOUT, profile=drill.profile,
                            **run.kwargs)  # fmt: skip
        out.times_ms.append(ms)
        if str(result.status) != "ok" or not isinstance(result.value, dict):
            out.failing_seed = run.seed
            out.failure = f"{run.name} did not finish on {run.where}: {result.status}"
            return [(run.path, out.failure)]
        found = [f for f in order_check.problems(drill, [run], [result.value]) if f[2] == "error"]
        if found:
            out.failing_seed = run.seed
            out.failure = found[0][1]
            return [(found[0][0], out.failure)]
    return []


def sweep_drill(
    ref: _Ref, seeds: list[int], sandbox: Sandbox, budget: float | None = None, answers: bool = True
) -> tuple[DrillSweep, Found]:
    """Sweep one drill over ``seeds``: its stats and (path within the drill, message) found.
    ``answers=False`` skips proving that the starter and ``wrong`` answers fail."""
    drill = ref.drill
    out = DrillSweep(ref.full_id, drill.kind, list(seeds), budget or budget_s(drill))
    if isinstance(drill, PredictDrill):
        found = _sweep_predict(ref, drill, out, sandbox)
    elif isinstance(drill, CodeDrill):
        found = _sweep_code(ref, drill, out, sandbox, answers)
    else:
        found = _sweep_static(drill, out)
        if not found and isinstance(drill, OrderDrill) and drill.run is not None:
            found = _sweep_run(drill, out, sandbox)
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
    if pinned and isinstance(drill, PredictDrill):
        return [*range(5), *(s for s in pinned if s >= 5)]
    return pinned
