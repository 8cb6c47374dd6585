"""The data of a grading: the ``Judgement`` of one drill kind, the ``Plan`` that grading one
answer follows (computed once) and the ``Grade`` it ends in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

from tutor.content.models import Params

#: every status a Grade can have
Status = Literal[
    "correct",  # the answer is right
    "wrong",  # a verdict was reached and the answer is not right (forbidden uses included)
    "invalid",  # the answer could not be read (unparseable, syntax error, not an offered line)
    "authoring",  # the drill itself is broken: not the learner's fault
    "timeout",  # the learner's code ran past the time limit
    "memory",
    "output_limit",
    "crashed",
    "sandbox_error",  # the sandbox failed, or its data could not be read
    "error",  # grading failed for another reason (the message says which)
]
STATUSES: tuple[str, ...] = get_args(Status)


@dataclass
class Judgement:
    """What the judge of one drill kind decided (the engine turns it into a ``Grade``)."""

    status: Status
    feedback: str
    expected: str
    category: str | None = None

    @property
    def correct(self) -> bool:
        return self.status == "correct"


class Call(BaseModel):
    """One sandbox call: ``Sandbox.call(target, timeout=..., memory_mb=..., **kwargs)``."""

    target: str = Field(description="tutor.probes.MODULE:FUNCTION")
    kwargs: dict[str, Any] = Field(default_factory=dict)
    timeout: float = 5.0
    memory_mb: int = 1024
    profile: str = Field(default="default", description="sandbox limits profile (drill limits)")


@dataclass
class Plan:
    """Everything grading one answer needs, computed once by ``engine.plan``: the params drawn
    for the seed, the judgement already reached without the sandbox (order/choice drills, code
    that does not parse or uses a forbidden construct, a broken drill), or the sandbox call."""

    seed: int
    params: Params
    call: Call | None = None
    decided: Judgement | None = None
    forbidden: list[str] = field(default_factory=list)
    variants: list[tuple[int, Params]] = field(default_factory=list)
    """Code drills: (seed, params) of every variant the answer is graded on, its own first."""


class Grade(BaseModel):
    """The verdict on one answer, with feedback; the UI and ``drill run --json`` show it."""

    drill: str = Field(description="full id, pack/drill")
    seed: int = Field(description="replays this attempt's params and trial inputs")
    params: Params = Field(default_factory=dict, description="values drawn for the seed")
    status: Status
    correct: bool
    expected: str = Field(default="", description="a readable rendering of the truth")
    feedback: str = Field(default="", description="what differs, in plain words")
    category: str | None = Field(default=None, description="failure category (for the hint)")
    hint: str | None = Field(default=None, description="the targeted hint for the failure")
    forbidden: list[str] = Field(default_factory=list, description="forbidden uses found")
    failure: dict[str, Any] | None = Field(
        default=None,
        description="code drills: the smallest failing input (`inputs`), `expected` and `got` "
        "as text, the first differing `index`, and the comparison `policy`",
    )

    def contract(self) -> dict[str, Any]:
        """The fields of the ``tutor drill run --json`` contract (plus category/hint/forbidden)."""
        return self.model_dump(mode="json")
