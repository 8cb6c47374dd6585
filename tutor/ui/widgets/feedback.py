"""The verdict and feedback of the last grading."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tutor.safe_text import strip_controls

if TYPE_CHECKING:
    from tutor.grading.grade import Grade

VERDICTS = {
    "correct": "✓ Correct",
    "wrong": "✗ Not quite",
    "invalid": "? Could not read that answer",
    "error": "✗ Your code raised an error",
    "timeout": "⏱ Timed out",
    "memory": "✗ Used too much memory",
    "output_limit": "✗ Printed too much",
    "crashed": "✗ Crashed",
    "forbidden": "✗ Uses something this drill forbids",
    "sandbox_error": "! The sandbox failed (not your fault)",
}


def verdict_title(grade: Grade) -> str:
    """A short headline for a grade."""
    if grade.correct:
        return VERDICTS["correct"]
    return VERDICTS.get(str(grade.status), f"✗ {grade.status}")


def failure_text(failure: dict[str, Any]) -> Text:
    """The smallest failing input of a code drill: the input, expected against got, and the
    first differing index (every value shown literally)."""
    rows = [("\ninput:    ", str(failure.get("inputs") or ""))]
    rows.append(("\nexpected: ", str(failure.get("expected") or "")))
    raised = failure.get("raised")
    if raised:
        rows.append(("\ngot:      ", f"{raised.get('type')}: {raised.get('message')}"))
    elif failure.get("got") is not None:
        rows.append(("\ngot:      ", str(failure["got"])))
    if failure.get("index"):
        rows.append(("\nfirst difference at index ", str(failure["index"])))
    parts: list[Any] = []
    for label, value in rows:
        parts += [(label, "bold"), strip_controls(value)]
    return Text.assemble(*parts)


class FeedbackPanel(Static):
    """Draws ``grade`` (a tutor.grading Grade): verdict, feedback, targeted hint, expected."""

    grade: reactive[Grade | None] = reactive(None)
    """The last Grade (None before the first answer)."""
    show_expected: reactive[bool] = reactive(True)
    """Whether a correct answer also shows what torch returned (predict drills)."""

    def watch_grade(self, grade: Grade | None) -> None:
        self.display = grade is not None
        if grade is None:
            return
        self.set_class(bool(grade.correct), "-correct")
        self.set_class(not grade.correct, "-wrong")
        self.border_title = verdict_title(grade)
        parts: list[Text] = []  # literal text: values and messages may come from learner code
        if grade.feedback:
            parts.append(Text(strip_controls(grade.feedback)))
        failure = getattr(grade, "failure", None)
        if not grade.correct and failure:
            parts.append(failure_text(failure))
        if not grade.correct and getattr(grade, "hint", None):
            parts.append(Text.assemble(("\nTry this: ", "bold"), strip_controls(grade.hint)))
        if grade.correct and grade.expected and self.show_expected:
            parts.append(Text.assemble(("\ntorch says: ", "bold"), strip_controls(grade.expected)))
        self.update(Group(*parts) if parts else Text(""))
