"""The learner's progress: a SQLite database in the data dir (``TUTOR_HOME`` overrides).

Every attempt, lessons read, review cards and where the learner left off. WAL mode with
``synchronous=FULL``: each write is one transaction, so a crash or ``kill -9`` loses no
committed attempt and never leaves a corrupt file.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import fsrs

from tutor.progress import reviews
from tutor.progress.schema import migrate
from tutor.settings import home_dir

#: A drill is mastered once answered correctly with at most this many hints.
MASTERY_MAX_HINTS = 1


def now_utc() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Attempt:
    """One answer to one drill variant."""

    drill: str
    seed: int
    answer: str
    correct: bool
    status: str
    hints_used: int
    seconds: float
    at: datetime
    uid: str


@dataclass(frozen=True)
class ChapterStatus:
    """How far a learner is in one chapter."""

    chapter: int
    lesson_read: bool
    mastered: int
    total: int
    quiz_mastered: int
    quiz_total: int

    @property
    def done(self) -> bool:
        """Done: the lesson is read and every quiz drill is mastered."""
        return self.lesson_read and self.quiz_total > 0 and self.quiz_mastered == self.quiz_total


class Store:
    """The progress database. Safe to share between the UI thread and worker threads."""

    def __init__(self, path: Path | None = None, *, clock: Callable[[], datetime] = now_utc):
        self.path = path or home_dir() / "progress.db"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=10
        )
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        migrate(self._conn)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, sql_params: Iterable[tuple[str, tuple]]) -> None:
        """Run statements in one immediate transaction."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in sql_params:
                    self._conn.execute(sql, params)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    # --- attempts and reviews -------------------------------------------------------------

    def record_attempt(
        self,
        drill: str,
        seed: int,
        answer: str,
        correct: bool,
        status: str,
        hints_used: int = 0,
        seconds: float = 0.0,
        *,
        at: datetime | None = None,
    ) -> str:
        """Store an attempt and reschedule its drill's review; returns the attempt's uid."""
        when = at or self.clock()
        uid = uuid.uuid4().hex
        card = self._card(drill) or reviews.new_card()
        card = reviews.review(card, reviews.rating_for(correct, hints_used, seconds), when)
        self._write(
            [
                (
                    "INSERT INTO attempts (uid, drill, seed, answer, correct, status, hints_used,"
                    " seconds, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        uid,
                        drill,
                        seed,
                        answer,
                        int(correct),
                        status,
                        hints_used,
                        seconds,
                        when.isoformat(),
                    ),
                ),
                (
                    "INSERT OR REPLACE INTO cards (drill, card, due) VALUES (?, ?, ?)",
                    (drill, card.to_json(), card.due.isoformat()),
                ),
            ]
        )
        return uid

    def attempts(self, drill: str | None = None) -> list[Attempt]:
        """All attempts, oldest first (of one drill when ``drill`` is given)."""
        sql = (
            "SELECT drill, seed, answer, correct, status, hints_used, seconds, at, uid"
            " FROM attempts"
        )
        rows = (
            self._rows(sql + " WHERE drill = ? ORDER BY id", (drill,))
            if drill
            else self._rows(sql + " ORDER BY id")
        )
        return [
            Attempt(
                r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6], datetime.fromisoformat(r[7]), r[8]
            )
            for r in rows
        ]

    def _card(self, drill: str) -> fsrs.Card | None:
        rows = self._rows("SELECT card FROM cards WHERE drill = ?", (drill,))
        return fsrs.Card.from_json(rows[0][0]) if rows else None

    def next_review(self, drill: str) -> datetime | None:
        """When ``drill`` is next due for review, or None if never attempted."""
        card = self._card(drill)
        return card.due if card else None

    def due_reviews(self, now: datetime | None = None) -> list[str]:
        """Drill ids due for review at ``now``, most overdue first."""
        when = (now or self.clock()).isoformat()
        return [
            r[0] for r in self._rows("SELECT drill FROM cards WHERE due <= ? ORDER BY due", (when,))
        ]

    # --- mastery and chapters -------------------------------------------------------------

    def mastered_set(self) -> set[str]:
        """Every drill id answered correctly with at most ``MASTERY_MAX_HINTS`` hints."""
        rows = self._rows(
            "SELECT DISTINCT drill FROM attempts WHERE correct = 1 AND hints_used <= ?",
            (MASTERY_MAX_HINTS,),
        )
        return {r[0] for r in rows}

    def mastered(self, drill: str) -> bool:
        """Whether ``drill`` is mastered."""
        return drill in self.mastered_set()

    def mark_lesson_read(self, chapter: int) -> None:
        """Record that the lesson of ``chapter`` has been read (the first time counts)."""
        self._write(
            [
                (
                    "INSERT OR IGNORE INTO lessons (chapter, read_at) VALUES (?, ?)",
                    (chapter, self.clock().isoformat()),
                )
            ]
        )

    def lesson_read(self, chapter: int) -> bool:
        return bool(self._rows("SELECT 1 FROM lessons WHERE chapter = ?", (chapter,)))

    def chapter_status(
        self, chapter: int, drill_ids: Iterable[str], quiz_ids: Iterable[str]
    ) -> ChapterStatus:
        """Progress of ``chapter`` given its drills and quiz drills; remembers completion."""
        mastered = self.mastered_set()
        drills, quiz = set(drill_ids), set(quiz_ids)
        status = ChapterStatus(
            chapter=chapter,
            lesson_read=self.lesson_read(chapter),
            mastered=len(drills & mastered),
            total=len(drills),
            quiz_mastered=len(quiz & mastered),
            quiz_total=len(quiz),
        )
        if status.done:
            self._write(
                [
                    (
                        "INSERT OR IGNORE INTO chapters (chapter, done_at) VALUES (?, ?)",
                        (chapter, self.clock().isoformat()),
                    )
                ]
            )
        return status

    def chapters_done(self) -> set[int]:
        """Chapters ever completed."""
        return {r[0] for r in self._rows("SELECT chapter FROM chapters")}

    # --- where the learner left off -------------------------------------------------------

    def set_last_location(self, kind: str, ident: str) -> None:
        """Remember the screen the learner is on (``kind`` e.g. lesson/drill, ``ident`` its id)."""
        self._write(
            [
                (
                    "INSERT OR REPLACE INTO location (id, kind, ident, at) VALUES (1, ?, ?, ?)",
                    (kind, ident, self.clock().isoformat()),
                )
            ]
        )

    def last_location(self) -> tuple[str, str] | None:
        rows = self._rows("SELECT kind, ident FROM location WHERE id = 1")
        return (rows[0][0], rows[0][1]) if rows else None
