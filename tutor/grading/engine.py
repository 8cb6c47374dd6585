"""The grading engine: plan, run the plan's sandbox call, judge — for every drill kind.

The sync CLI and the async UI share every line of logic: ``plan`` draws the params and reads
the answer once, and either decides without the sandbox (choice drills, order drills but an order
that only running it can judge, code whose syntax error or forbidden construct is found by
reading it) or names the probe to call;
``judge`` validates the probe's data (``tutor.probes.data_grading``; data that does not fit is a
``sandbox_error``) and turns it into a :class:`Grade`. ``grade`` and ``grade_async`` are the two
thin ways of running a plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import TypeAdapter, ValidationError

from tutor.content.models import ChoiceDrill, CodeDrill, Drill, OrderDrill, Params, PredictDrill
from tutor.content.units import prompt_unit
from tutor.grading import codecheck
from tutor.grading import order as orders
from tutor.grading.choices import judge_choice
from tutor.grading.grade import Call, Grade, Judgement, Plan, Status
from tutor.grading.hints import hint_for_category
from tutor.grading.predict import judge_predict
from tutor.grading.trials import trial_mix
from tutor.grading.variants import draw_params, other_seeds, render, render_prose
from tutor.probes.data_grading import (
    CodeData,
    MistakeValue,
    OrderData,
    PredictAuthoring,
    PredictData,
    PredictValue,
)
from tutor.sandbox.result import RunResult
from tutor.sandbox.result import Status as RunStatus

if TYPE_CHECKING:
    from tutor.sandbox import AsyncSandbox, Sandbox

PREDICT_TARGET = "tutor.probes.grade_predict:predict"
PREDICT_TIMEOUT = 5.0
CODE_TIMEOUT = 10.0
_PREDICT_DATA: TypeAdapter[PredictValue | PredictAuthoring] = TypeAdapter(PredictData)
_ORDER_DATA: TypeAdapter[OrderData] = TypeAdapter(OrderData)


class DrillLike(Protocol):
    """What the engine needs of a drill reference (``tutor.content.catalog.DrillRef`` fits)."""

    @property
    def full_id(self) -> str: ...

    @property
    def drill(self) -> Drill: ...


def plan(ref: DrillLike, answer: str, seed: int) -> Plan:
    """Everything grading ``answer`` needs, computed once: the drawn params, and either the
    judgement reached without the sandbox or the sandbox call to make."""
    drill = ref.drill
    params = draw_params(drill.params, seed)
    p = Plan(seed=seed, params=params)
    profile = drill.profile
    if isinstance(drill, PredictDrill):
        kwargs: dict[str, Any] = {
            "setup": drill.setup_code(params),
            "ask": render(drill.ask, params),
        }
        if drill.wrong:
            kwargs["wrong"] = [render(w.ask, params) for w in drill.wrong]
        p.call = Call(
            target=PREDICT_TARGET, kwargs=kwargs, timeout=PREDICT_TIMEOUT, profile=profile
        )
    elif isinstance(drill, OrderDrill):
        decided = orders.decide(drill, params, answer)
        if isinstance(decided, Judgement):
            p.decided = decided
        else:  # the drill's check decides: run its lines in the learner's order
            kwargs = orders.run_kwargs(drill, params, decided)
            p.call = Call(
                target=orders.TARGET, kwargs=kwargs, timeout=CODE_TIMEOUT, profile=profile
            )
    elif isinstance(drill, ChoiceDrill):
        p.decided = judge_choice(drill, params, answer)
    elif isinstance(drill, CodeDrill):
        static = codecheck.judge_static(drill, answer, params)
        if static is not None:
            p.decided, p.forbidden = static
            return p
        seeds = [seed, *other_seeds(drill.params, seed, drill.check.variants - 1)]
        p.variants = [(s, params if s == seed else draw_params(drill.params, s)) for s in seeds]
        try:
            runs = [codecheck.code_kwargs(drill, ps, answer, s) for s, ps in p.variants]
        except codecheck.AuthoringError as exc:
            p.decided = Judgement("authoring", f"The drill is broken: {exc.field}: {exc}.", "")
            return p
        if len(runs) == 1:
            p.call = Call(
                target=codecheck.TARGET, kwargs=runs[0], timeout=CODE_TIMEOUT, profile=profile
            )
        else:
            batch = {"runs": runs, "stop_on": "fail"}
            timeout = CODE_TIMEOUT * len(runs)
            p.call = Call(
                target=codecheck.SEEDS_TARGET, kwargs=batch, timeout=timeout, profile=profile
            )
    return p


MEMORY_MB = Call.model_fields["memory_mb"].default


#: how a run that did not finish ends a grading
_ENDINGS: dict[str, Status] = {
    "timeout": "timeout",
    "memory": "memory",
    "output_limit": "output_limit",
    "crashed": "crashed",
}


def _data(
    result: RunResult | None, learner: bool = True, timeout: float = CODE_TIMEOUT
) -> dict[str, Any] | list[Any] | Judgement:
    """The probe's data to judge, or the judgement for a run that produced none (limits,
    crashes, probe errors)."""
    if result is None:
        return Judgement("error", "Grading needed the sandbox but no result came back.", "")
    status = str(result.status)
    if status == "ok" and isinstance(result.value, dict | list):
        return result.value
    if status == "ok":
        return Judgement("sandbox_error", "The grading probe returned no data.", "")
    if status == "error":
        exc = result.exception
        what = f"{exc.type}: {exc.message}" if exc else result.reason
        return Judgement("error", f"Grading failed inside the sandbox: {what}", "")
    limits = {
        "timeout": f"Your code ran longer than {timeout:g} s, the drill's time limit.",
        "memory": f"Your code used more than {MEMORY_MB} MB, the drill's memory limit.",
    }
    if learner and status in limits:
        return Judgement(_ENDINGS[status], limits[status], "")
    reasons = {
        "timeout": "Your code ran too long",
        "memory": "Your code used too much memory",
        "output_limit": "Your code printed too much",
        "crashed": "The run crashed",
        "sandbox_error": "The sandbox failed (not your fault)",
    }
    text = reasons.get(status, status)
    if not learner and status in _ENDINGS:
        text = "The drill's own code did not finish (not your fault)"
    known = _ENDINGS.get(status, "sandbox_error")
    return Judgement(known, f"{text}: {result.reason}." if result.reason else f"{text}.", "")


def malformed(exc: ValidationError) -> Judgement:
    """The judgement on probe data that does not fit its model."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "the data"
    msg = f"The grading probe sent data that cannot be read ({where}: {first['msg']})."
    return Judgement("sandbox_error", msg, "")


def _predict(
    drill: PredictDrill, answer: str, result: RunResult | None, params: Params
) -> Judgement:
    value = _data(result, learner=False, timeout=PREDICT_TIMEOUT)
    if isinstance(value, Judgement):
        return value
    try:
        data = _PREDICT_DATA.validate_python(value)
    except ValidationError as exc:
        return malformed(exc)
    if isinstance(data, PredictAuthoring):
        err = data.error
        line = f" at line {err.line}" if err.line else ""
        msg = f"The drill is broken: its {data.field} raised {err.type}{line}: {err.message}"
        return Judgement("authoring", msg, "")
    truth = data.value.model_dump()
    known = [
        (m.value.model_dump(), render_prose(w.feedback, params).strip())
        for w, m in zip(drill.wrong, data.wrong, strict=False)
        if isinstance(m, MistakeValue)
    ]
    unit = drill.unit or prompt_unit(render_prose(drill.prompt, params))
    return judge_predict(truth, data.context, answer, drill.tolerance, drill.lenient,
                         atol=drill.atol, unit=unit, known=known)  # fmt: skip


def _order(drill: OrderDrill, result: RunResult | None, params: Params) -> Judgement:
    value = _data(result, learner=False)
    if isinstance(value, Judgement):
        return value
    try:
        data = _ORDER_DATA.validate_python(value)
    except ValidationError as exc:
        return malformed(exc)
    return orders.judge_run(drill, params, data)


def _code(
    result: RunResult | None, drill: CodeDrill, p: Plan
) -> tuple[Judgement, list[str], dict[str, Any] | None]:
    value = _data(result)
    if isinstance(value, Judgement):
        return value, [], None
    runs = value if isinstance(value, list) else [value]
    if not runs or len(runs) > max(1, len(p.variants)):
        return (
            Judgement("sandbox_error", "The grading probe sent no verdict per variant.", ""),
            [],
            None,
        )
    try:
        dumped = [CodeData.model_validate(v).model_dump(by_alias=True) for v in runs]
    except ValidationError as exc:
        return malformed(exc), [], None
    index = next((i for i, d in enumerate(dumped) if not codecheck.passed(d)), len(dumped) - 1)
    variants = p.variants or [(p.seed, p.params)]
    params = variants[index][1]
    if dumped[index]["stage"] == "refused":
        judgement, forbidden = codecheck.refusal_judgement(drill, dumped[index]["refusals"])
        return judgement, forbidden, None
    judgement, forbidden = codecheck.judge_code(dumped[index], trial_mix(drill.check))
    judgement = codecheck.with_drill(judgement, dumped[index], drill, params)
    if index > 0:
        judgement = codecheck.on_variant(judgement, params)
    return judgement, forbidden, codecheck.failure_data(dumped[index])


def judge(ref: DrillLike, p: Plan, answer: str, result: RunResult | None) -> Grade:
    """The grade of ``answer`` from its plan and the result of the plan's call (None if none)."""
    drill = ref.drill
    forbidden = list(p.forbidden)
    failure = None
    if p.decided is not None:
        judgement = p.decided
    elif isinstance(drill, PredictDrill):
        judgement = _predict(drill, answer, result, p.params)
    elif isinstance(drill, CodeDrill):
        judgement, forbidden, failure = _code(result, drill, p)
    elif isinstance(drill, OrderDrill) and p.call is not None:
        judgement = _order(drill, result, p.params)
    else:  # choice drills and most order drills are decided by their plan
        judgement = Judgement("error", f"A {drill.kind} drill was planned without a decision.", "")
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
        forbidden=forbidden,
        failure=failure,
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


#: single-variant probes and the probe that runs several of their calls at once
BATCHED = {
    PREDICT_TARGET: ("tutor.probes.grade_predict:predict_seeds", "cases"),
    codecheck.TARGET: (codecheck.SEEDS_TARGET, "runs"),
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
    target, key = BATCHED[batchable[0][1].target]
    first = batchable[0][1]
    kwargs: dict[str, Any] = {key: [c.kwargs for _, c in batchable]}
    if key == "runs":
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
    p = plan(ref, answer, seed)
    result = None
    if p.call is not None:
        c = p.call
        result = await sandbox.call(
            c.target, timeout=c.timeout, memory_mb=c.memory_mb, profile=c.profile, **c.kwargs
        )
    return judge(ref, p, answer, result)
