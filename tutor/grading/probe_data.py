"""What a grading probe's run gave, for every kind's judge: its data, or the judgement for a
run that produced none (a limit crossed, a crash, data that does not fit its model).
Torch-free."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from tutor.grading.grade import Call, Judgement, Status
from tutor.sandbox.result import RunResult

PREDICT_TIMEOUT = 5.0
CODE_TIMEOUT = 10.0
MEMORY_MB = Call.model_fields["memory_mb"].default

T = TypeVar("T")

#: how a run that did not finish ends a grading
_ENDINGS: dict[str, Status] = {
    "timeout": "timeout",
    "memory": "memory",
    "output_limit": "output_limit",
    "crashed": "crashed",
}
_REASONS = {
    "timeout": "Your code ran too long",
    "memory": "Your code used too much memory",
    "output_limit": "Your code printed too much",
    "crashed": "The run crashed",
    "sandbox_error": "The sandbox failed (not your fault)",
}


def probe_data(
    result: RunResult | None, learner: bool = True, timeout: float = CODE_TIMEOUT
) -> dict[str, Any] | list[Any] | Judgement:
    """The probe's data to judge, or the judgement for a run that produced none (limits,
    crashes, probe errors). ``learner``: the run was the learner's code (its limits are said as
    the learner's), else only the drill's own code ran."""
    if result is None:
        return Judgement("error", "Grading needed the sandbox but no result came back.", "")
    status = str(result.status)
    if status == "ok" and isinstance(result.value, dict | list):
        return result.value
    if status == "ok":
        return Judgement("sandbox_error", "The grading probe returned no data.", "")
    if status == "error":
        exc = result.exception
        what = f"{exc.type}: {exc.message}" if exc else result.reason
        return Judgement("error", f"Grading failed inside the sandbox: {what}", "")
    limits = {
        "timeout": f"Your code ran longer than {timeout:g} s, the drill's time limit.",
        "memory": f"Your code used more than {MEMORY_MB} MB, the drill's memory limit.",
    }
    if learner and status in limits:
        return Judgement(_ENDINGS[status], limits[status], "")
    text = _REASONS.get(status, status)
    if not learner and status in _ENDINGS:
        text = "The drill's own code did not finish (not your fault)"
    known = _ENDINGS.get(status, "sandbox_error")
    return Judgement(known, f"{text}: {result.reason}." if result.reason else f"{text}.", "")


def malformed(exc: ValidationError) -> Judgement:
    """The judgement on probe data that does not fit its model."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "the data"
    msg = f"The grading probe sent data that cannot be read ({where}: {first['msg']})."
    return Judgement("sandbox_error", msg, "")


def probe_model(
    result: RunResult | None,
    adapter: TypeAdapter[T],
    learner: bool = True,
    timeout: float = CODE_TIMEOUT,
) -> T | Judgement:
    """The probe's data read as ``adapter``'s type, or the judgement for a run that produced
    none or data that does not fit (``probe_data``, then ``malformed``)."""
    value = probe_data(result, learner, timeout)
    if isinstance(value, Judgement):
        return value
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        return malformed(exc)
