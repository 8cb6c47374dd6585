"""The ``order`` kind: the learner puts the drill's lines in order.

Most orders are judged without the sandbox (``tutor.grading.order``: the listed order, an
``accept``ed one, or any order that keeps the ``constraints``); a drill with ``run`` has its
lines run in the learner's order by the ``grade_order`` probe and its assert decides. Pack
check runs each right order of such a drill (they must pass) and ``lines`` reversed (a check
any order passes is worth a warning); the sweep also finds two lines that read the same.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError

from tutor.content.models import OrderDrill, Params
from tutor.grading import order as orders
from tutor.grading import order_check
from tutor.grading.grade import Call, Judgement, Plan
from tutor.grading.kinds.base import AnswerInput, Kind, PackCheck, Sweep, Verdict, Where, twins
from tutor.grading.probe_data import CODE_TIMEOUT, probe_model
from tutor.grading.variants import Variant, draw_params, render, shuffled
from tutor.probes.data_grading import OrderData

_DATA: TypeAdapter[OrderData] = TypeAdapter(OrderData)


def _call(drill: OrderDrill, kwargs: dict[str, Any]) -> Call:
    return Call(target=orders.TARGET, kwargs=kwargs, timeout=CODE_TIMEOUT, profile=drill.profile)


_SHUFFLES = 100  # shuffles tried for lines not already in an accepted order


class OrderKind(Kind):
    """Put the lines in order."""

    name: ClassVar[str] = "order"
    model: ClassVar[type] = OrderDrill
    answer_input: ClassVar[AnswerInput] = "order"
    how: ClassVar[str] = (
        "Put the lines in order: shift+↑/↓ (or K/J, or the buttons) move a line; ctrl+s submits."
    )
    sandboxed: ClassVar[bool] = True
    timeout: ClassVar[float] = CODE_TIMEOUT

    def plan(self, drill: OrderDrill, p: Plan, answer: str) -> None:
        decided = orders.decide(drill, p.params, answer)
        if isinstance(decided, Judgement):
            p.decided = decided
        else:  # the drill's check decides: run its lines in the learner's order
            p.call = _call(drill, orders.run_kwargs(drill, p.params, decided))

    def judge(self, drill: OrderDrill, p: Plan, answer: str, result: Any) -> Verdict:
        if p.decided is not None or p.call is None:
            return super().judge(drill, p, answer, result)
        data = probe_model(result, _DATA, learner=False)
        if isinstance(data, Judgement):
            return Verdict(data)
        return Verdict(orders.judge_run(drill, p.params, data))

    def checks(self, drill: OrderDrill) -> bool:
        return drill.run is not None

    def fill_variant(self, drill: OrderDrill, variant: Variant, rng: random.Random) -> None:
        lines = [render(line, variant.params) for line in drill.lines]
        for _ in range(_SHUFFLES):  # not an order the drill already accepts (its constraints)
            variant.lines = shuffled(lines, rng)
            decided = orders.decide(drill, variant.params, "\n".join(variant.lines))
            if not (isinstance(decided, Judgement) and decided.status == "correct"):
                return

    def written_answer(self, drill: OrderDrill, params: Params) -> str | None:
        return "\n".join(render(line, params) for line in drill.lines)

    def check(self, ctx: PackCheck) -> None:
        drill = ctx.ref.drill
        assert isinstance(drill, OrderDrill)
        if drill.run is None:
            return
        tried = order_check.runs(drill, list(ctx.seeds))
        plans = [Plan(seed=r.seed, params={}, call=_call(drill, r.kwargs)) for r in tried]
        outcomes = []
        for result in ctx.results(plans):
            if result is None or str(result.status) != "ok" or not isinstance(result.value, dict):
                why = f"{result.status} {result.reason}".rstrip() if result else "no result"
                ctx.report(("run",), f"the drill's own orders did not finish: {why}")
                return
            try:
                outcomes.append(_DATA.validate_python(result.value).model_dump())
            except ValidationError as exc:
                ctx.report(("run",), f"the probe sent data that cannot be read: {exc}")
                return
        for path, message, severity, line in order_check.problems(drill, tried, outcomes):
            ctx.report(path, message, line, severity)

    def sweep(self, ctx: Sweep) -> list[tuple[Where, str]]:
        drill = ctx.ref.drill
        assert isinstance(drill, OrderDrill)
        for seed in ctx.seeds:
            rendered = [render(x, draw_params(drill.params, seed)) for x in drill.lines]
            pair = twins(drill.lines, rendered)
            if pair is not None:
                return ctx.fail(seed, ("lines", pair[1]), f"lines {pair[0]} and {pair[1]} read "
                                f"the same on {ctx.where(seed)}; a learner cannot tell them "
                                "apart")  # fmt: skip
        if drill.run is None:
            return []
        for run in order_check.runs(drill, ctx.seeds):
            if not run.must_pass:
                continue
            result, _ = ctx.timed(Plan(seed=run.seed, params={}, call=_call(drill, run.kwargs)))
            if result is None or str(result.status) != "ok" or not isinstance(result.value, dict):
                status = result.status if result is not None else "no result"
                return ctx.fail(run.seed, run.path, f"{run.name} did not finish on {run.where}: "
                                f"{status}")  # fmt: skip
            found = [
                f for f in order_check.problems(drill, [run], [result.value]) if f[2] == "error"
            ]
            if found:
                return ctx.fail(run.seed, found[0][0], found[0][1])
        return []
