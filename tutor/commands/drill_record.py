"""`tutor drill run --record`: keep a graded answer in the learner's progress, as the tutor does."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from tutor.grading.grade import Grade


def record_grade(grade: Grade, answer: str) -> str | None:
    """Record ``grade`` of ``answer`` in the progress store (``TUTOR_HOME``) as an attempt made
    with no hint and no time measured; returns its uid. A grade the sandbox could not reach
    (``sandbox_error``) is not the learner's and is not recorded (None), as in the tutor."""
    from tutor.commands.progress import open_or_exit
    from tutor.grading.outcome import outcome_of

    if grade.status == "sandbox_error":
        click.echo(
            "not recorded: the sandbox failed, so this is no verdict on the answer", err=True
        )
        return None
    with open_or_exit() as store:
        uid = store.record_attempt(
            grade.drill, grade.seed, answer, grade.correct, str(grade.status),
            outcome=outcome_of(grade),
        )  # fmt: skip
        for notice in store.take_notices():
            click.echo(notice.text, err=True)
    return uid
