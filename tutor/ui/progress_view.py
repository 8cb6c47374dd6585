"""What the home screen shows for each chapter, computed from the catalog's summary and the
store."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.content.summary import CatalogSummary
    from tutor.progress.store import Store

MASTERY_RULE = (
    "A drill is mastered once answered correctly with at most one hint. "
    "A chapter is done when its lesson is read and every quiz drill is mastered."
)


def until(delta: timedelta) -> str:
    """``delta`` from now in words: "in 20 minutes", "in 5 hours", "tomorrow", "in 3 days"."""
    minutes = max(1, round(delta.total_seconds() / 60))
    if minutes < 60:
        return f"in {minutes} minute{'s' if minutes != 1 else ''}"
    hours = round(minutes / 60)
    if hours < 24:
        return f"in {hours} hour{'s' if hours != 1 else ''}"
    days = round(hours / 24)
    return "tomorrow" if days == 1 else f"in {days} days"


@dataclass(frozen=True)
class ChapterView:
    """One chapter's progress, ready to draw."""

    number: int
    title: str
    thesis: str
    part: str
    has_lesson: bool
    lesson_read: bool
    drills_mastered: int
    drills_total: int
    quiz_mastered: int
    quiz_total: int
    labs: tuple[str, ...] = field(default_factory=tuple)
    complete: bool = False
    """The store's verdict: lesson read and every quiz drill (at least one) mastered."""
    started: bool = False
    """Whether the learner has read the lesson or tried any of the chapter's drills."""

    @property
    def available(self) -> bool:
        """Whether there is anything to study yet (a lesson or drills)."""
        return self.has_lesson or self.drills_total > 0

    @property
    def done(self) -> bool:
        """Lesson read and every quiz drill mastered."""
        return self.has_lesson and self.complete


def chapter_views(summary: CatalogSummary, store: Store) -> list[ChapterView]:
    """Every chapter of the catalog's summary with its progress in the store."""
    views = []
    tried = {a.drill for a in store.attempts()}
    for chapter in summary.chapters:
        drills = summary.drills_for(chapter.number)
        status = store.chapter_status(
            chapter.number, [d.full_id for d in drills], [d.full_id for d in drills if d.quiz]
        )
        views.append(
            ChapterView(
                number=chapter.number,
                title=chapter.title,
                thesis=chapter.thesis,
                part=chapter.part,
                has_lesson=chapter.number in summary.lessons,
                lesson_read=status.lesson_read,
                drills_mastered=status.mastered,
                drills_total=status.total,
                quiz_mastered=status.quiz_mastered,
                quiz_total=status.quiz_total,
                labs=tuple(chapter.labs),
                complete=status.done,
                started=status.lesson_read or any(d.full_id in tried for d in drills),
            )
        )
    return views


#: the one set of drill marks every screen draws (drill lists, the lesson's side panel)
MASTERED, TRIED, NEW = "✓", "◐", "○"
#: the drill list's legend: each mark kept on a line with its word (no-break spaces)
MARKS_LEGEND = f"{MASTERED}\u00a0mastered  {TRIED}\u00a0tried  {NEW}\u00a0new"


def drill_mark(full_id: str, mastered: set[str], tried: set[str]) -> str:
    """The mark of one drill: mastered, tried (attempted, not mastered) or new."""
    if full_id in mastered:
        return MASTERED
    return TRIED if full_id in tried else NEW
