"""Choice drills: graded in the UI process, without the sandbox (torch-free).

A ``choice`` answer is the text of the chosen answer (case and spacing do not matter). Order
drills are ``tutor.grading.order``'s (``judge_order``, and ``quote_line`` of
``tutor.grading.order_lines``, are re-exported here, where they were).
"""

from __future__ import annotations

import re

from tutor.content.models import ChoiceDrill, Params
from tutor.grading.grade import Judgement
from tutor.grading.order import judge_order
from tutor.grading.order_lines import quote_line
from tutor.grading.variants import render_prose

__all__ = ["judge_choice", "judge_order", "quote_line"]


def _norm(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


def judge_choice(drill: ChoiceDrill, params: Params, answer: str) -> Judgement:
    """Find the picked answer; on a wrong pick, its ``why`` is the feedback."""
    texts = [render_prose(c.answer, params) for c in drill.choices]
    right = next(t for t, c in zip(texts, drill.choices, strict=True) if c.correct)
    key = _norm(answer).lower()
    for text, choice in zip(texts, drill.choices, strict=True):
        if _norm(text).lower() == key:
            if choice.correct:
                return Judgement("correct", "Correct.", right)
            why = render_prose(choice.why, params).strip()
            return Judgement("wrong", why or "Not that one.", right, "choice")
    return Judgement("invalid", "That is not one of the answers offered.", right)
