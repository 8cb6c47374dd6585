"""What one sandboxed run produced: the verdict contract shared by `tutor exec --json`,
the grading engine, the labs and the UI."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field


class Status(StrEnum):
    """The verdict of a run."""

    ok = "ok"
    error = "error"  # the code raised an exception
    timeout = "timeout"
    memory = "memory"
    output_limit = "output_limit"
    crashed = "crashed"  # killed by a signal (SIGSEGV, ...)
    sandbox_error = "sandbox_error"  # the sandbox itself failed; not the learner's fault


class ExceptionInfo(BaseModel):
    """An exception raised by the code: type name, message, learner-frame traceback."""

    type: str
    message: str
    traceback: str = ""


class RunResult(BaseModel):
    """The verdict of one run, with its output and, for probe calls, the returned data."""

    status: Status
    reason: str = Field(default="", description="one plain line, e.g. 'timed out after 2.0 s'")
    stdout: str = ""
    stderr: str = ""
    exception: ExceptionInfo | None = None
    duration_ms: float = 0.0
    containment: list[str] = Field(default_factory=list)
    value: Any = Field(default=None, description="JSON data returned by a probe call")

    @property
    def ok(self) -> bool:
        return self.status is Status.ok

    @property
    def message(self) -> str:
        """What went wrong in one line: the exception's message, else the reason, else the
        status."""
        text = self.exception.message if self.exception else self.reason
        return text or str(self.status)
