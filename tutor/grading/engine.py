"""The grading engine: plan a sandbox call, run it, judge the result — for every drill kind.

The sync CLI and the async UI share every line of logic: ``plan`` says which probe to call
(None when the answer is graded without the sandbox: order and choice drills, or code whose
syntax error or forbidden construct is found by reading it), ``judge`` turns the probe's data
into a :class:`Grade`. ``grade`` and ``grade_async`` are the two thin ways of running a plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from tutor.content.models import ChoiceDrill, CodeDrill, Drill, OrderDrill, PredictDrill
from tutor.grading import codecheck
from tutor.grading.choices import judge_choice, judge_order
from tutor.grading.grade import Grade, Plan
from tutor.grading.hints import hint_for_category
from tutor.grading.predict import Verdict, judge_predict
from tutor.grading.variants import draw_params, render

if TYPE_CHECKING:
    from tutor.sandbox import AsyncSandbox, Sandbox
    from tutor.sandbox.result import RunResult

PREDICT_TARGET = "tutor.probes.grade_predict:predict"
PREDICT_TIMEOUT = 5.0
CODE_TIMEOUT = 10.0


class DrillLike(Protocol):
    """What the engine needs of a drill reference (``tutor.content.catalog.DrillRef`` fits)."""

    @property
    def full_id(self) -> str: ...

    @property
    def drill(self) -> Drill: ...


def plan(ref: DrillLike, answer: str, seed: int) -> Plan | None:
    """The sandbox call that grading ``answer`` needs, or None when it needs none."""
    drill = ref.drill
    params = draw_params(drill.params, seed)
    if isinstance(drill, PredictDrill):
        kwargs = {"setup": render(drill.setup, params), "ask": render(drill.ask, params)}
        return Plan(target=PREDICT_TARGET, kwargs=kwargs, timeout=PREDICT_TIMEOUT)
    if isinstance(drill, CodeDrill):
        if codecheck.judge_static(drill, answer) is not None:
            return None
        try:
            kwargs = codecheck.code_kwargs(drill, params, answer, seed)
        except codecheck.AuthoringError:
            return None
        return Plan(target=codecheck.TARGET, kwargs=kwargs, timeout=CODE_TIMEOUT)
    return None


MEMORY_MB = Plan.model_fields["memory_mb"].default


def _from_result(
    result: RunResult | None, learner: bool = True, timeout: float = CODE_TIMEOUT
) -> Verdict | None:
    """A verdict for a run that produced no data to judge (limits, crashes, probe errors)."""
    if result is None:
        return Verdict("error", "Grading needed the sandbox but no result came back.", "")
    status = str(result.status)
    if status == "ok" and isinstance(result.value, dict):
        return None
    if status == "ok":
        return Verdict("error", "The grading probe returned no data.", "")
    if status == "error":
        exc = result.exception
        what = f"{exc.type}: {exc.message}" if exc else result.reason
        return Verdict("error", f"Grading failed inside the sandbox: {what}", "")
    limits = {
        "timeout": f"Your code ran longer than {timeout:g} s, the drill's time limit.",
        "memory": f"Your code used more than {MEMORY_MB} MB, the drill's memory limit.",
    }
    if learner and status in limits:
        return Verdict(status, limits[status], "")
    reasons = {
        "timeout": "Your code ran too long",
        "memory": "Your code used too much memory",
        "output_limit": "Your code printed too much",
        "crashed": "The run crashed",
        "sandbox_error": "The sandbox failed (not your fault)",
    }
    text = reasons.get(status, status)
    if not learner and status in ("timeout", "memory", "output_limit", "crashed"):
        text = "The drill's own code did not finish (not your fault)"
    return Verdict(status, f"{text}: {result.reason}." if result.reason else f"{text}.", "")


def _predict(drill: PredictDrill, answer: str, result: RunResult | None) -> Verdict:
    stop = _from_result(result, learner=False, timeout=PREDICT_TIMEOUT)
    if stop:
        return stop
    value: dict[str, Any] = result.value  # type: ignore[union-attr]
    if value.get("outcome") == "authoring":
        err = value["error"]
        line = f" at line {err['line']}" if err.get("line") else ""
        msg = (
            f"The drill is broken: its {value['field']} raised {err['type']}{line}: "
            f"{err['message']}"
        )
        return Verdict("authoring", msg, "")
    return judge_predict(value["value"], value.get("context"), answer, drill.tolerance)


def _code(
    drill: CodeDrill, answer: str, seed: int, params: dict, result: RunResult | None
) -> tuple[Verdict, list[str]]:
    static = codecheck.judge_static(drill, answer)
    if static is not None:
        return static
    try:
        codecheck.code_kwargs(drill, params, answer, seed)
    except codecheck.AuthoringError as exc:
        return Verdict("authoring", f"The drill is broken: {exc.field}: {exc}.", ""), []
    stop = _from_result(result)
    if stop:
        return stop, []
    return codecheck.judge_code(result.value)  # type: ignore[union-attr]


def judge(ref: DrillLike, answer: str, seed: int, result: RunResult | None) -> Grade:
    """The grade of ``answer`` given the result of ``plan``'s sandbox call (None if no call)."""
    drill = ref.drill
    params = draw_params(drill.params, seed)
    forbidden: list[str] = []
    if isinstance(drill, PredictDrill):
        verdict = _predict(drill, answer, result)
    elif isinstance(drill, OrderDrill):
        verdict = judge_order(drill, params, answer)
    elif isinstance(drill, ChoiceDrill):
        verdict = judge_choice(drill, params, answer)
    else:
        verdict, forbidden = _code(drill, answer, seed, params, result)
    return Grade(
        drill=ref.full_id,
        seed=seed,
        params=params,
        status=verdict.status,
        correct=verdict.correct,
        expected=verdict.expected,
        feedback=verdict.feedback,
        category=verdict.category,
        hint=hint_for_category(verdict.category),
        forbidden=forbidden,
    )


def hint_for(grade: Grade) -> str | None:
    """The targeted hint for how ``grade`` failed (None when correct or no hint applies)."""
    return None if grade.correct else hint_for_category(grade.category)


def grade(ref: DrillLike, answer: str, seed: int, sandbox: Sandbox) -> Grade:
    """Grade ``answer`` for the attempt ``seed``, running the plan in a sync ``Sandbox``."""
    p = plan(ref, answer, seed)
    result = None
    if p is not None:
        result = sandbox.call(p.target, timeout=p.timeout, memory_mb=p.memory_mb, **p.kwargs)
    return judge(ref, answer, seed, result)


async def grade_async(ref: DrillLike, answer: str, seed: int, sandbox: AsyncSandbox) -> Grade:
    """Grade ``answer`` with an ``AsyncSandbox`` (the UI's way; same logic as ``grade``)."""
    p = plan(ref, answer, seed)
    result = None
    if p is not None:
        result = await sandbox.call(p.target, timeout=p.timeout, memory_mb=p.memory_mb, **p.kwargs)
    return judge(ref, answer, seed, result)
