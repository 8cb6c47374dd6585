"""The ``predict`` kind: the learner types what torch gives; the sandbox computes the truth.

Planning asks the ``grade_predict`` probe for the truth of the variant (and each ``wrong``
entry's value, in the same call); judging reads the typed answer against it
(``tutor.grading.predict``). Pack check proves every seed's truth is one a learner can type
and that the likely mistakes differ from it; the sweep also finds a drill that raises on some
variants and returns a value on others without saying so.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError

from tutor.content.models import Params, PredictDrill
from tutor.content.units import prompt_unit
from tutor.grading.grade import Call, Judgement, Plan
from tutor.grading.kinds.base import AnswerInput, Kind, PackCheck, Sweep, Verdict, Where
from tutor.grading.mistakes import truth_problems
from tutor.grading.predict import judge_predict
from tutor.grading.probe_data import PREDICT_TIMEOUT, probe_model
from tutor.grading.variants import draw_params, render, render_prose
from tutor.probes.data_grading import MistakeValue, PredictAuthoring, PredictData, PredictValue

TARGET = "tutor.probes.grade_predict:predict"
_DATA: TypeAdapter[PredictValue | PredictAuthoring] = TypeAdapter(PredictData)
_TYPO = ("AttributeError", "NameError")


class PredictKind(Kind):
    """Predict what torch returns (or raises)."""

    name: ClassVar[str] = "predict"
    model: ClassVar[type] = PredictDrill
    answer_input: ClassVar[AnswerInput] = "line"
    how: ClassVar[str] = "Type what torch returns (or the exception it raises) and press enter."
    sandboxed: ClassVar[bool] = True
    timeout: ClassVar[float] = PREDICT_TIMEOUT
    truths: ClassVar[bool] = True

    def plan(self, drill: PredictDrill, p: Plan, answer: str) -> None:
        kwargs: dict[str, Any] = {
            "setup": drill.setup_code(p.params),
            "ask": render(drill.ask, p.params),
        }
        if drill.wrong:
            kwargs["wrong"] = [render(w.ask, p.params) for w in drill.wrong]
        p.call = Call(target=TARGET, kwargs=kwargs, timeout=PREDICT_TIMEOUT, profile=drill.profile)

    def judge(self, drill: PredictDrill, p: Plan, answer: str, result: Any) -> Verdict:
        if p.decided is not None:
            return super().judge(drill, p, answer, result)
        data = probe_model(result, _DATA, learner=False, timeout=PREDICT_TIMEOUT)
        if isinstance(data, Judgement):
            return Verdict(data)
        if isinstance(data, PredictAuthoring):
            err = data.error
            line = f" at line {err.line}" if err.line else ""
            msg = f"The drill is broken: its {data.field} raised {err.type}{line}: {err.message}"
            return Verdict(Judgement("authoring", msg, ""))
        known = [
            (m.value.model_dump(), render_prose(w.feedback, p.params).strip())
            for w, m in zip(drill.wrong, data.wrong, strict=False)
            if isinstance(m, MistakeValue)
        ]
        unit = drill.unit or prompt_unit(render_prose(drill.prompt, p.params))
        return Verdict(judge_predict(data.value.model_dump(), data.context, answer,
                                     drill.tolerance, drill.lenient, atol=drill.atol, unit=unit,
                                     known=known))  # fmt: skip

    def written_answer(self, drill: PredictDrill, params: Params) -> str | None:
        return None

    def check(self, ctx: PackCheck) -> None:
        drill = ctx.ref.drill
        assert isinstance(drill, PredictDrill)
        values = _truths(ctx)
        if isinstance(values, str):
            ctx.report(("ask",), f"setup/ask did not finish: {values}")
            return
        warned: set[Where] = set()
        for seed, value in zip(ctx.seeds, values, strict=False):
            if value["outcome"] == "authoring":
                err = value["error"]
                msg = f"{err['type']}: {err['message']} on {ctx.where(seed)}"
                if err["type"] in ("NameError", "SyntaxError", "ImportError"):
                    msg += " (an authoring error, not a truth)"
                ctx.report_code(value["field"], msg, err.get("line"))
                return
            untypable = _untypable(drill, value["value"], ctx.where(seed))
            if untypable:
                ctx.report(("ask",), untypable)
                return
            found = truth_problems(drill, value, ctx.where(seed))
            for path, message, severity, line in found:
                if severity == "warning" and path in warned:
                    continue  # said once per drill
                warned.add(path)
                ctx.report(path or ("ask",), message, line, severity)
            if any(severity == "error" for _, _, severity, _ in found):
                return

    def sweep(self, ctx: Sweep) -> list[tuple[Where, str]]:
        drill = ctx.ref.drill
        assert isinstance(drill, PredictDrill)
        seen: dict[tuple[str, ...], tuple[str, str, Where]] = {}
        raised: dict[str, int] = {}  # exception name -> first seed
        valued: int | None = None
        for seed in ctx.seeds:
            params = draw_params(drill.params, seed)
            key = (drill.setup_code(params), render(drill.ask, params),
                   *(render(w.ask, params) for w in drill.wrong))  # fmt: skip
            if key not in seen:  # the truth depends on the rendered code only
                seen[key] = _swept_truth(ctx, drill, seed)
            outcome, message, path = seen[key]
            if outcome in ("!", "!!"):
                where = "" if outcome == "!!" else f" on {ctx.where(seed)}"
                return ctx.fail(seed, path, f"{message}{where}")
            if outcome == "value":
                valued = seed if valued is None else valued
            else:
                raised.setdefault(outcome, seed)
        meant = drill.prompt + drill.explain  # "the shape, or the error?" drills name the error
        unnamed = {name: seed for name, seed in raised.items() if name not in meant}
        if unnamed and valued is not None:
            name, seed = min(unnamed.items(), key=lambda kv: kv[1])
            return ctx.fail(seed, ("ask",), f"ask raises {name} on {ctx.where(seed)} but "
                            f"returns a value on {ctx.where(valued)}: narrow the params (if the "
                            f"error is the point, name {name} in the drill's explain)")  # fmt: skip
        return []


def _truths(ctx: PackCheck) -> list[dict[str, Any]] | str:
    """The truth data of every seed, planned as a learner's grading plans it and run in one
    batched call (a reason when it did not finish or cannot be read)."""
    drill = ctx.ref.drill
    assert isinstance(drill, PredictDrill)
    plans = []
    for seed in ctx.seeds:
        p = Plan(seed=seed, params=draw_params(drill.params, seed))
        PredictKind().plan(drill, p, "")
        plans.append(p)
    values: list[dict[str, Any]] = []
    for result in ctx.results(plans):
        if result is None:
            break  # the batch stopped at an authoring error
        if str(result.status) != "ok":
            return f"{result.status} {result.reason}"
        try:
            values.append(_DATA.validate_python(result.value).model_dump(by_alias=True))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            return (
                f"sandbox_error the probe sent data that cannot be read ({where}: {first['msg']})"
            )
    return values


def _untypable(drill: PredictDrill, truth: dict[str, Any], where: str) -> str | None:
    """Why a truth is no good for a learner to type (None: it is fine)."""
    named = truth.get("name", "") in drill.prompt + drill.explain
    if truth["type"] == "exception" and truth["name"] in _TYPO and not named:
        return (f"ask raises {truth['name']}: {truth['message']} on {where}; a likely typo "
                f"(if the error is the point, name {truth['name']} in the drill's explain)")  # fmt: skip
    if truth["type"] == "other":
        return (f"ask returns a {truth['pytype']}, which a learner cannot type; ask for a "
                "shape, dtype, number or small tensor instead")  # fmt: skip
    if truth["type"] == "tensor" and truth.get("values") is None:
        return (f"ask returns a tensor of {truth['numel']} elements, too many to type; ask "
                "for a smaller one or for its shape")  # fmt: skip
    return None


def _swept_truth(ctx: Sweep, drill: PredictDrill, seed: int) -> tuple[str, str, Where]:
    """One predict variant: (``value`` | exception name | ``!`` when broken (``!!``: the
    message names the variant), message, the path of what is broken inside the drill)."""
    p = Plan(seed=seed, params=draw_params(drill.params, seed))
    PredictKind().plan(drill, p, "")
    result, _ = ctx.timed(p)
    ask: Where = ("ask",)
    if result is None:
        return "!", "setup/ask made no sandbox call", ask
    if str(result.status) != "ok":
        return "!", f"setup/ask did not finish: {result.status} {result.reason}".rstrip(), ask
    try:
        data = _DATA.validate_python(result.value)
    except ValidationError as exc:
        return "!", f"the probe sent data that cannot be read: {exc.errors()[0]['msg']}", ask
    if isinstance(data, PredictAuthoring):
        err = data.error
        return "!", f"{data.field} raised {err.type}: {err.message}", ask
    truth = data.value.model_dump()
    untypable = _untypable(drill, truth, ctx.where(seed))
    if untypable:
        return "!!", untypable, ask
    for path, message, severity, _ in truth_problems(drill, data.model_dump(), ctx.where(seed)):
        if severity == "error":  # the message names the variant already
            return "!!", message, path
    if truth["type"] == "exception":
        return str(truth["name"]), str(truth.get("message", "")), ask
    return "value", "", ask
