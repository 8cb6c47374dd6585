"""The ``choice`` kind: the learner picks one of the drill's answers (graded without the
sandbox: ``tutor.grading.choices``). The sweep finds two choices that read the same."""

from __future__ import annotations

import random
from typing import ClassVar

from tutor.content.models import ChoiceDrill, Params
from tutor.grading.choices import judge_choice
from tutor.grading.grade import Plan
from tutor.grading.kinds.base import AnswerInput, Kind, Sweep, Where, twins
from tutor.grading.probe_data import CODE_TIMEOUT
from tutor.grading.variants import Variant, draw_params, render_prose, shuffled


class ChoiceKind(Kind):
    """Pick the one correct answer."""

    name: ClassVar[str] = "choice"
    model: ClassVar[type] = ChoiceDrill
    answer_input: ClassVar[AnswerInput] = "choice"
    how: ClassVar[str] = "Pick the one correct answer (enter or click)."
    sandboxed: ClassVar[bool] = False
    timeout: ClassVar[float] = CODE_TIMEOUT

    def plan(self, drill: ChoiceDrill, p: Plan, answer: str) -> None:
        p.decided = judge_choice(drill, p.params, answer)

    def fill_variant(self, drill: ChoiceDrill, variant: Variant, rng: random.Random) -> None:
        texts = [render_prose(c.answer, variant.params) for c in drill.choices]
        variant.choices = shuffled(texts, rng)

    def written_answer(self, drill: ChoiceDrill, params: Params) -> str | None:
        right = next(c for c in drill.choices if c.correct)
        return render_prose(right.answer, params)

    def sweep(self, ctx: Sweep) -> list[tuple[Where, str]]:
        drill = ctx.ref.drill
        assert isinstance(drill, ChoiceDrill)
        raw = [c.answer for c in drill.choices]
        for seed in ctx.seeds:
            params = draw_params(drill.params, seed)
            pair = twins(raw, [render_prose(x, params) for x in raw])
            if pair is not None:
                return ctx.fail(seed, ("choices", pair[1]), f"choices {pair[0]} and {pair[1]} "
                                f"read the same on {ctx.where(seed)}; a learner cannot tell them "
                                "apart")  # fmt: skip
        return []
