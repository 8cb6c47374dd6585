"""The answer of one drill variant, for a learner who asks to see it.

Attempts made after the answer was shown are recorded as ``revealed`` (they neither master a
drill nor move its review; ``tutor.progress.store``). A predict drill's answer is what torch
says, so it comes from the sandbox; the other kinds are read from the drill.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.grading.engine import DrillLike, grade, grade_async
from tutor.grading.kinds import kind_of
from tutor.grading.variants import draw_params

if TYPE_CHECKING:
    from tutor.sandbox import AsyncSandbox, Sandbox


def written_answer(ref: DrillLike, seed: int) -> str | None:
    """The answer as the drill writes it, rendered for ``seed`` (None for a predict drill,
    whose answer only torch can give)."""
    drill = ref.drill
    return kind_of(drill).written_answer(drill, draw_params(drill.params, seed))


def _from_grade(expected: str, feedback: str) -> str:
    return expected or f"(torch gave no answer: {feedback})"


def answer(ref: DrillLike, seed: int, sandbox: Sandbox) -> str:
    """The answer of the variant ``seed`` (a predict drill's truth runs in ``sandbox``)."""
    written = written_answer(ref, seed)
    if written is not None:
        return written
    g = grade(ref, "", seed, sandbox)
    return _from_grade(g.expected, g.feedback)


async def answer_async(ref: DrillLike, seed: int, sandbox: AsyncSandbox) -> str:
    """``answer`` with the UI's ``AsyncSandbox``."""
    written = written_answer(ref, seed)
    if written is not None:
        return written
    g = await grade_async(ref, "", seed, sandbox)
    return _from_grade(g.expected, g.feedback)
