"""The grading engine: plan, run the plan's sandbox call, judge — for every drill kind.

The sync CLI, the async UI and ``tutor pack check`` share every line of logic: ``plan`` draws
the params and asks the drill's kind (``tutor.grading.kinds``) to read the answer once, and
either decide without the sandbox (choice drills, most order drills, code the reading refuses)
or name the probe to call; ``judge`` asks the kind to read the probe's data
(``tutor.probes.data_grading``; data that does not fit is a ``sandbox_error``) and turns its
verdict into a :class:`Grade`. ``grade`` and ``grade_async`` are the two thin ways of running a
plan (``judge_async`` runs one already made: the drill screen plans first, to start no runtime
for an answer judged without one); ``run_batch``/``grade_batch`` run several plans of one drill in one sandbox call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tutor.grading import codecheck
from tutor.grading import order as orders
from tutor.grading.grade import Grade, Plan
from tutor.grading.hints import hint_for_category
from tutor.grading.kinds import kind_of
from tutor.grading.kinds.base import DrillRef
from tutor.grading.kinds.predict import TARGET as PREDICT_TARGET
from tutor.grading.probe_data import CODE_TIMEOUT, MEMORY_MB, PREDICT_TIMEOUT, malformed
from tutor.grading.variants import draw_params
from tutor.sandbox.result import RunResult
from tutor.sandbox.result import Status as RunStatus

if TYPE_CHECKING:
    from tutor.sandbox import AsyncSandbox, Sandbox

__all__ = ["CODE_TIMEOUT", "MEMORY_MB", "PREDICT_TARGET", "PREDICT_TIMEOUT", "DrillLike",
           "grade", "grade_async", "grade_batch", "hint_for", "judge", "judge_async", "malformed",
           "plan", "run_batch", "run_call"]  # fmt: skip

#: what the engine needs of a drill reference (``tutor.content.catalog.DrillRef`` fits)
DrillLike = DrillRef


def plan(ref: DrillLike, answer: str, seed: int) -> Plan:
    """Everything grading ``answer`` needs, computed once: the drawn params, and either the
    judgement reached without the sandbox or the sandbox call to make."""
    drill = ref.drill
    p = Plan(seed=seed, params=draw_params(drill.params, seed))
    kind_of(drill).plan(drill, p, answer)
    return p


def judge(ref: DrillLike, p: Plan, answer: str, result: RunResult | None) -> Grade:
    """The grade of ``answer`` from its plan and the result of the plan's call (None if none)."""
    drill = ref.drill
    verdict = kind_of(drill).judge(drill, p, answer, result)
    judgement = verdict.judgement
    return Grade(
        drill=ref.full_id,
        seed=p.seed,
        params=p.params,
        status=judgement.status,
        correct=judgement.correct,
        expected=judgement.expected,
        feedback=judgement.feedback,
        category=judgement.category,
        hint=hint_for_category(judgement.category),
        forbidden=verdict.forbidden,
        failure=verdict.failure,
    )


def hint_for(grade: Grade) -> str | None:
    """The targeted hint for how ``grade`` failed (None when correct or no hint applies)."""
    return None if grade.correct else hint_for_category(grade.category)


def run_call(p: Plan, sandbox: Sandbox) -> RunResult | None:
    """Make the plan's sandbox call, if it has one, in a sync ``Sandbox``."""
    if p.call is None:
        return None
    c = p.call
    return sandbox.call(
        c.target, timeout=c.timeout, memory_mb=c.memory_mb, profile=c.profile, **c.kwargs
    )


#: single-variant probes -> (the probe that runs several of their calls at once, the name of
#: its list argument, whether it takes ``stop_on``)
BATCHED: dict[str, tuple[str, str, bool]] = {
    PREDICT_TARGET: ("tutor.probes.grade_predict:predict_seeds", "cases", False),
    codecheck.TARGET: (codecheck.SEEDS_TARGET, "runs", True),
    orders.TARGET: ("tutor.probes.grade_order:run_orders", "runs", False),
}


def run_batch(
    plans: Sequence[Plan], sandbox: Sandbox, stop_on: str | None = None
) -> list[RunResult | None]:
    """Make the calls of several plans of one drill, batched into one sandbox call where their
    probe has a batched form (``BATCHED``): the RunResult of each plan's call, in order (None
    for a plan decided without the sandbox, or not run because the batch stopped). With
    ``stop_on`` (``"fail"`` or ``"pass"``, code drills) the batch stops at the first plan that
    fails, or passes. A plan graded on several variants runs alone."""
    out: list[RunResult | None] = [None] * len(plans)
    pending = [(i, p.call) for i, p in enumerate(plans) if p.call is not None]
    batchable = [(i, c) for i, c in pending if c.target in BATCHED]
    for i, c in pending:
        if c.target not in BATCHED:
            out[i] = sandbox.call(
                c.target, timeout=c.timeout, memory_mb=c.memory_mb, profile=c.profile, **c.kwargs
            )
    if not batchable:
        return out
    target, key, stops = BATCHED[batchable[0][1].target]
    first = batchable[0][1]
    kwargs: dict[str, Any] = {key: [c.kwargs for _, c in batchable]}
    if stops:
        kwargs["stop_on"] = stop_on or "none"
    total = sum(c.timeout for _, c in batchable)
    result = sandbox.call(
        target, timeout=total, memory_mb=first.memory_mb, profile=first.profile, **kwargs
    )
    values = result.value if str(result.status) == "ok" else None
    for n, (i, _) in enumerate(batchable):
        if isinstance(values, list):
            out[i] = RunResult(status=RunStatus.ok, value=values[n]) if n < len(values) else None
        elif n == 0 or values is None:
            out[i] = result if n == 0 else None
    return out


def grade_batch(
    ref: DrillLike, answers: Sequence[tuple[str, int]], sandbox: Sandbox, stop_on: str | None = None
) -> list[tuple[Plan, RunResult | None, Grade]]:
    """Grade several (answer, seed) pairs of one drill through one batched sandbox call where
    the kind allows (``run_batch``): each pair's plan, its call's result and its grade, in
    order, up to where ``stop_on`` stopped the batch. What ``tutor pack check`` runs for a
    reference, a starter, a wrong answer or a forgery on several seeds, and ``grade`` for one."""
    plans = [plan(ref, answer, seed) for answer, seed in answers]
    results = run_batch(plans, sandbox, stop_on)
    out = []
    for (answer, _), p, result in zip(answers, plans, results, strict=True):
        if p.call is not None and result is None:
            break  # the batch stopped before this one
        out.append((p, result, judge(ref, p, answer, result)))
    return out


def grade(ref: DrillLike, answer: str, seed: int, sandbox: Sandbox) -> Grade:
    """Grade ``answer`` for the attempt ``seed``, running the plan in a sync ``Sandbox``."""
    p = plan(ref, answer, seed)
    return judge(ref, p, answer, run_call(p, sandbox))


async def grade_async(ref: DrillLike, answer: str, seed: int, sandbox: AsyncSandbox) -> Grade:
    """Grade ``answer`` with an ``AsyncSandbox`` (the UI's way; same logic as ``grade``)."""
    return await judge_async(ref, plan(ref, answer, seed), answer, sandbox)


async def judge_async(ref: DrillLike, p: Plan, answer: str, sandbox: AsyncSandbox) -> Grade:
    """The grade of ``answer`` from its plan, making the plan's call (if any) in ``sandbox``."""
    result = None
    if p.call is not None:
        c = p.call
        result = await sandbox.call(
            c.target, timeout=c.timeout, memory_mb=c.memory_mb, profile=c.profile, **c.kwargs
        )
    return judge(ref, p, answer, result)
