"""The verdict and feedback of the last grading."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from tutor.safe_text import strip_controls
from tutor.ui.widgets.inline_text import inline

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
        # literal text (values and messages may come from learner code); the grader's own
        # words may quote a drill's lines or names in code spans, drawn as such
        parts: list[Content] = []
        if grade.feedback:
            parts.append(inline(strip_controls(grade.feedback)))
        failure = getattr(grade, "failure", None)
        if not grade.correct and failure:
            parts.append(Content.from_rich_text(failure_text(failure)))
        if not grade.correct and getattr(grade, "hint", None):
            hint = inline(strip_controls(grade.hint or ""))
            parts.append(Content("\n") + Content.styled("Try this: ", "bold") + hint)
        if grade.correct and grade.expected and self.show_expected:
            said = Content.styled("\ntorch says: ", "bold") + Content(
                strip_controls(grade.expected)
            )
            parts.append(said)
        self.update(Content("\n").join(parts))
