"""The data of a grading: the ``Plan`` of a sandbox call and the ``Grade`` it ends in."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

#: every status a Grade can have
STATUSES = (
    "correct",  # the answer is right
    "wrong",  # a verdict was reached and the answer is not right (forbidden uses included)
    "invalid",  # the answer could not be read (unparseable, syntax error, not an offered line)
    "authoring",  # the drill itself is broken: not the learner's fault
    "timeout",  # the learner's code ran past the time limit
    "memory",
    "output_limit",
    "crashed",
    "sandbox_error",  # the sandbox failed
    "error",  # grading failed for another reason (the message says which)
)


class Plan(BaseModel):
    """One sandbox call that grading needs: ``Sandbox.call(target, **kwargs)`` under limits."""

    target: str = Field(description="tutor.probes.MODULE:FUNCTION")
    kwargs: dict[str, Any] = Field(default_factory=dict)
    timeout: float = 5.0
    memory_mb: int = 1024


class Grade(BaseModel):
    """The verdict on one answer, with feedback; the UI and ``drill run --json`` show it."""

    drill: str = Field(description="full id, pack/drill")
    seed: int = Field(description="replays this attempt's params and trial inputs")
    params: dict[str, Any] = Field(default_factory=dict, description="values drawn for the seed")
    status: str = Field(description="one of STATUSES")
    correct: bool
    expected: str = Field(default="", description="a readable rendering of the truth")
    feedback: str = Field(default="", description="what differs, in plain words")
    category: str | None = Field(default=None, description="failure category (for the hint)")
    hint: str | None = Field(default=None, description="the targeted hint for the failure")
    forbidden: list[str] = Field(default_factory=list, description="forbidden uses found")

    def contract(self) -> dict[str, Any]:
        """The fields of the ``tutor drill run --json`` contract (plus category/hint/forbidden)."""
        return self.model_dump(mode="json")
