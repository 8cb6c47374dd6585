"""The ``code`` and ``fix`` kinds: the learner writes (or repairs) code; the judge grades it.

Planning reads the answer first (the reading, ``tutor.probes.reading``: a refusal decides at
once) and names the ``check_code`` probe: one call for the learner's variant, or one batched
call over the variants ``check.variants`` asks for. Judging reads the judge's data
(``tutor.grading.codecheck``); a failure on another variant says so with its params. Pack
check's part is in ``code_check``; the sweep proves the reference passes every swept variant
and the starter and ``wrong`` answers fail one.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import ValidationError

from tutor.content.models import CodeDrill, FixDrill, Params
from tutor.grading import codecheck
from tutor.grading.grade import Call, Judgement, Plan
from tutor.grading.kinds.base import AnswerInput, Kind, PackCheck, Sweep, Verdict, Where
from tutor.grading.kinds.code_check import check_code_drill
from tutor.grading.probe_data import CODE_TIMEOUT, malformed, probe_data
from tutor.grading.trials import trial_mix
from tutor.grading.variants import Variant, draw_params, other_seeds, render
from tutor.probes.data_grading import CodeData


class CodeKind(Kind):
    """Write code from a starter."""

    name: ClassVar[str] = "code"
    model: ClassVar[type] = CodeDrill
    answer_input: ClassVar[AnswerInput] = "code"
    how: ClassVar[str] = (
        "Write the code in the editor; ctrl+s submits; ctrl+o: $EDITOR (quitting it submits)."
    )
    sandboxed: ClassVar[bool] = True
    timeout: ClassVar[float] = CODE_TIMEOUT

    def plan(self, drill: CodeDrill, p: Plan, answer: str) -> None:
        static = codecheck.judge_static(drill, answer, p.params)
        if static is not None:
            p.decided, p.forbidden = static
            return
        seeds = [p.seed, *other_seeds(drill.params, p.seed, drill.check.variants - 1)]
        p.variants = [(s, p.params if s == p.seed else draw_params(drill.params, s)) for s in seeds]
        try:
            runs = [codecheck.code_kwargs(drill, ps, answer, s) for s, ps in p.variants]
        except codecheck.AuthoringError as exc:
            p.decided = Judgement("authoring", f"The drill is broken: {exc.field}: {exc}.", "")
            return
        if len(runs) == 1:
            p.call = Call(target=codecheck.TARGET, kwargs=runs[0], timeout=CODE_TIMEOUT,
                          profile=drill.profile)  # fmt: skip
        else:
            batch: dict[str, Any] = {"runs": runs, "stop_on": "fail"}
            p.call = Call(target=codecheck.SEEDS_TARGET, kwargs=batch,
                          timeout=CODE_TIMEOUT * len(runs), profile=drill.profile)  # fmt: skip

    def judge(self, drill: CodeDrill, p: Plan, answer: str, result: Any) -> Verdict:
        if p.decided is not None:
            return super().judge(drill, p, answer, result)
        value = probe_data(result)
        if isinstance(value, Judgement):
            return Verdict(value)
        runs = value if isinstance(value, list) else [value]
        if not runs or len(runs) > max(1, len(p.variants)):
            return Verdict(Judgement("sandbox_error", "The grading probe sent no verdict per "
                                     "variant.", ""))  # fmt: skip
        try:
            dumped = [CodeData.model_validate(v).model_dump(by_alias=True) for v in runs]
        except ValidationError as exc:
            return Verdict(malformed(exc))
        index = next((i for i, d in enumerate(dumped) if not codecheck.passed(d)), len(dumped) - 1)
        params = (p.variants or [(p.seed, p.params)])[index][1]
        data = dumped[index]
        if data["stage"] == "refused":
            return Verdict(*codecheck.refusal_judgement(drill, data["refusals"]))
        judgement, forbidden = codecheck.judge_code(data, trial_mix(drill.check))
        judgement = codecheck.with_drill(judgement, data, drill, params)
        if index > 0 and not codecheck.passed(data):
            judgement = codecheck.on_variant(judgement, params)
        return Verdict(judgement, forbidden, codecheck.failure_data(data))

    def fill_variant(self, drill: CodeDrill, variant: Variant, rng: random.Random) -> None:
        variant.starter = render(drill.starter, variant.params)

    def written_answer(self, drill: CodeDrill, params: Params) -> str | None:
        return render(drill.reference, params).rstrip() + "\n"

    def check(self, ctx: PackCheck) -> None:
        check_code_drill(ctx)

    def sweep(self, ctx: Sweep) -> list[tuple[Where, str]]:
        drill = ctx.ref.drill
        assert isinstance(drill, CodeDrill)
        for seed in ctx.seeds:
            ok, feedback = ctx.passes(drill.reference, seed)
            if not ok:
                return ctx.fail(seed, ("reference",), f"the reference fails on "
                                f"{ctx.where(seed)}: {feedback}")  # fmt: skip
        if not ctx.answers:
            return []
        tried: list[tuple[Where, str, str]] = [(("starter",), drill.starter, "the starter")]
        tried += [(("wrong", j), w.code, f"wrong[{j}]") for j, w in enumerate(drill.wrong_answers)]
        found: list[tuple[Where, str]] = []
        for path, text, name in tried:
            if not any(not ctx.passes(text, seed, timed=False)[0] for seed in ctx.seeds):
                found.append((path, f"{name} passes on every one of {len(ctx.seeds)} trials; "
                              "it must fail on at least one"))  # fmt: skip
        return found


class FixKind(CodeKind):
    """Repair the broken starter."""

    name: ClassVar[str] = "fix"
    model: ClassVar[type] = FixDrill
    how: ClassVar[str] = (
        "Repair the code in the editor; ctrl+s submits; ctrl+o: $EDITOR (quitting it submits)."
    )
