"""What a drill kind declares: one class per kind, one row per kind in ``KINDS``.

A :class:`Kind` says everything the rest of the tutor needs to know about its drills: the
content model it grades, the answer input the drill screen shows (and the line under the
prompt that says how to answer), how an answer is planned (decided at once, or a sandbox call)
and judged, what the answer shown to a learner who asks is, and the kind's part of ``tutor pack
check`` and of its ``--trials`` sweep. The engine, pack check, the sweep and the UI ask the
kind; none of them tests a drill's kind itself.

Pack check and the sweep hand a kind a context (:class:`PackCheck`, :class:`Sweep`) that runs
answers through the same engine a learner's grading goes through, so a kind never builds probe
calls of its own beside its ``plan``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from tutor.content.models import Drill, Params
from tutor.grading.grade import Grade, Judgement, Plan
from tutor.grading.variants import Variant

if TYPE_CHECKING:
    from tutor.sandbox import Sandbox
    from tutor.sandbox.result import RunResult

#: the input the drill screen shows for a kind: one line, a pick, lines to order, an editor
AnswerInput = Literal["line", "choice", "order", "code"]
#: where inside a drill something is: ("wrong", 0), ("ask",), () for the drill itself
Where = tuple[str | int, ...]
#: one graded seed: (seed, the answer as rendered for it, its plan, its call's result, its grade)
Graded = tuple[int, str, Plan, "RunResult | None", Grade]


@dataclass
class Verdict:
    """What a kind's judge decided about one answer (the engine makes it a ``Grade``)."""

    judgement: Judgement
    forbidden: list[str] = field(default_factory=list)
    failure: dict[str, Any] | None = None


class DrillRef(Protocol):
    """A drill and its full id (``tutor.content.catalog.DrillRef`` fits)."""

    @property
    def full_id(self) -> str: ...

    @property
    def drill(self) -> Drill: ...


class PackCheck(Protocol):
    """What ``tutor pack check`` gives a kind's ``check`` for one drill."""

    ref: DrillRef
    sandbox: Sandbox
    seeds: Sequence[int]

    def report(
        self, where: Where, message: str, code_line: int | None = None, severity: str = "error"
    ) -> None:
        """A problem at ``where`` inside the drill (``code_line``: a line of the code there)."""

    def report_code(self, field: str, message: str, line: int | None) -> None:
        """An error raised by the drill's code ``field`` (``setup``: placed where it was
        written, in the drill's setup or the code the pack gives before it)."""

    def where(self, seed: int) -> str:
        """``seed`` and the params it draws, as a problem names a variant."""

    def time_limit(self) -> float:
        """The seconds one grading of the drill may run."""

    def results(self, plans: Sequence[Plan]) -> list[RunResult | None]:
        """The plans' sandbox calls, batched into one where the probe allows."""

    def grades(
        self,
        text: str,
        stop_on: str,
        *,
        alone_first: bool = False,
        seeds: Sequence[int] | None = None,
    ) -> list[Graded]:
        """``text`` (rendered per seed) graded as a learner's answer on ``seeds`` (default: the
        check's), batched, until ``stop_on`` (``fail``/``pass``) is met."""


class Sweep(Protocol):
    """What ``tutor pack check --trials`` gives a kind's ``sweep`` for one drill."""

    ref: DrillRef
    sandbox: Sandbox
    seeds: list[int]
    answers: bool
    """Whether to prove that the starter and ``wrong`` answers fail too."""

    def where(self, seed: int) -> str:
        """``seed`` and the params it draws."""

    def timed(self, plan: Plan) -> tuple[RunResult | None, float]:
        """The plan's call, made alone, and how long it took (ms, counted as a trial)."""

    def passes(self, text: str, seed: int, timed: bool = True) -> tuple[bool, str]:
        """Whether ``text`` (rendered for ``seed``) passes, and the feedback (``timed``: its
        time counts as a trial's)."""

    def fail(self, seed: int | None, where: Where, message: str) -> list[tuple[Where, str]]:
        """Record the first failing seed and say what failed there."""


class Kind(ABC):
    """One drill kind: its model, its answer input, and how its answers are graded."""

    name: ClassVar[str]
    """The ``kind:`` a pack writes."""
    model: ClassVar[type]
    """The content model of its drills (``tutor.content.models``)."""
    answer_input: ClassVar[AnswerInput]
    """The input the drill screen shows."""
    how: ClassVar[str]
    """The line under the prompt that says how to answer."""
    sandboxed: ClassVar[bool]
    """Whether grading an answer may need the sandbox (the screen says so while it waits)."""
    timeout: ClassVar[float]
    """Seconds one grading may run (before a drill's limits profile raises it)."""
    truths: ClassVar[bool] = False
    """Whether the answer is judged against a truth torch gives per variant (the sweep then
    compares regression seeds with the plain ones)."""

    @abstractmethod
    def plan(self, drill: Any, p: Plan, answer: str) -> None:
        """Fill ``p`` (its seed and params drawn): the judgement reached without the sandbox
        (``p.decided``), or the sandbox call to make (``p.call``)."""

    def judge(self, drill: Any, p: Plan, answer: str, result: RunResult | None) -> Verdict:
        """The verdict from the plan and the result of its call (None if it made none)."""
        if p.decided is not None:
            return Verdict(p.decided, list(p.forbidden))
        what = f"A {self.name} drill was planned without a decision."
        return Verdict(Judgement("error", what, ""))

    def fill_variant(self, drill: Any, variant: Variant, rng: random.Random) -> None:
        """Add the kind's own parts to an attempt (a starter, shuffled lines or choices)."""
        return None

    @abstractmethod
    def written_answer(self, drill: Any, params: Params) -> str | None:
        """The answer as the drill writes it for ``params`` (None when only torch can give it:
        the engine grades an empty answer and shows the truth)."""

    def checks(self, drill: Any) -> bool:
        """Whether ``tutor pack check`` runs anything for ``drill`` in the sandbox."""
        return self.sandboxed

    def check(self, ctx: PackCheck) -> None:
        """The kind's part of ``tutor pack check`` (after the schema): report what is wrong.
        A kind graded without the sandbox has nothing to run."""
        return None

    def sweep(self, ctx: Sweep) -> list[tuple[Where, str]]:
        """The kind's part of ``tutor pack check --trials``: what fails on the swept seeds."""
        return []


def twins(raw: list[str], texts: list[str]) -> tuple[int, int] | None:
    """Two texts that read the same once rendered though written differently (texts written
    alike on purpose are the author's choice)."""
    first: dict[str, int] = {}
    for i, text in enumerate(texts):
        key = " ".join(text.split())
        if key in first and raw[first[key]] != raw[i]:
            return first[key], i
        first.setdefault(key, i)
    return None
