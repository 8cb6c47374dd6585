"""The learner's progress: a SQLite database in the data dir (``TUTOR_HOME`` overrides).

Every attempt, lessons read, review cards and where the learner left off. WAL mode with
``synchronous=FULL``: each write is one transaction, so a crash or ``kill -9`` loses no
committed attempt and never leaves a corrupt file. A write the database cannot take (a full
disk, a read-only folder) is kept in a journal and saved later, never dropped.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from tutor.progress import reviews
from tutor.progress.database import classify, connect
from tutor.progress.journal import Entry, Journal
from tutor.settings import home_dir

if TYPE_CHECKING:
    import fsrs

#: how loud a notice is (the severities Textual's notify takes)
Severity = Literal["information", "warning", "error"]

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
    revealed: bool = False
    #: what the answer did, as ``tutor.grading.outcome`` names it ("" when correct or unknown)
    outcome: str = ""


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


@dataclass(frozen=True)
class Notice:
    """Something the learner should be told about their progress being saved."""

    severity: Severity
    text: str


class Store:
    """The progress database. Safe to share between the UI thread and worker threads.

    Opening raises ``StoreError`` when the file cannot be used (see ``tutor.progress.opening``
    for carrying on anyway). Writes never raise for a storage fault: an attempt or lesson read
    the database cannot take goes to the journal (``journal.py``) and is saved once a write
    succeeds again; ``take_notices`` tells the UI what to say about it.
    ``durable=False`` (with ``conn``) is a stand-in database in memory: everything still works
    for the session, and every attempt is also journalled for the real file.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        clock: Callable[[], datetime] = now_utc,
        conn: sqlite3.Connection | None = None,
        why: str = "",
    ):
        self.path = path or home_dir() / "progress.db"
        self.clock = clock
        self._lock = threading.Lock()
        self.journal = Journal(self.path.with_name(self.path.stem + "-pending.jsonl"))
        self.durable = conn is None
        """False: a stand-in in memory; nothing reaches ``path`` this session"""
        self.why = why
        """why this store is a stand-in (empty when durable)"""
        self._notices: list[Notice] = []
        self._told: set[str] = set()
        self._conn = connect(self.path) if conn is None else conn
        if self.durable:
            saved = self._flush()
            if saved:
                self._tell("information", _saved(saved))

    def close(self) -> None:
        if self.durable:
            self._flush()
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- notices --------------------------------------------------------------------------

    def _tell(self, severity: Severity, text: str, *, once: bool = False) -> None:
        if once and text in self._told:
            return
        self._told.add(text)
        if Notice(severity, text) not in self._notices:
            self._notices.append(Notice(severity, text))

    def take_notices(self) -> list[Notice]:
        """What happened to the saving since last asked (each notice given once)."""
        notices, self._notices = self._notices, []
        return notices

    @property
    def pending(self) -> int:
        """How many writes wait in the journal to be saved."""
        return len(self.journal)

    # --- writing --------------------------------------------------------------------------

    def _write(self, sql_params: Iterable[tuple[str, tuple[Any, ...]]]) -> None:
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

    def _try_write(self, sql_params: Iterable[tuple[str, tuple[Any, ...]]]) -> None:
        """``_write`` for what can be computed again (where the learner is, a chapter done):
        a storage fault is noted, not raised."""
        try:
            self._write(sql_params)
        except (sqlite3.Error, OSError) as exc:
            self._tell("warning", f"Progress could not be saved: {describe(exc)}.")

    def _apply(self, entries: list[Entry]) -> int:
        """Save journal-shaped entries in one transaction; returns how many were new."""
        new = 0
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                for entry in entries:
                    try:
                        new += _apply_entry(conn, entry)
                    except (KeyError, TypeError, ValueError):  # a damaged journal line
                        continue
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        return new

    def _save(self, entry: Entry, what: str) -> None:
        """Save ``entry`` (after anything pending), or keep it in the journal and say so."""
        if not self.durable:
            self._apply([entry])
            if not self.journal.add(entry):
                self._tell(
                    "warning",
                    "What you do this session cannot be kept in a file either: "
                    "it is lost when you quit.",
                    once=True,
                )
            return
        pending = self.journal.entries()
        try:
            self._apply([*pending, entry])
        except (sqlite3.Error, OSError) as exc:
            self._keep(entry, what, describe(exc))
            return
        if pending:
            self.journal.clear()
            self._tell("information", _saved(len(pending)))

    def _keep(self, entry: Entry, what: str, why: str) -> None:
        if self.journal.add(entry):
            where = f"It is kept in {self.journal.path} and will be saved as soon as possible."
        else:
            where = (
                "No file could hold it either, so the tutor keeps it in memory and saves it "
                "as soon as it can: keep the tutor open."
            )
        self._tell("warning", f"Your {what} could not be saved: {why}. {where}")

    def _flush(self) -> int:
        """Save what waits in the journal; returns how many entries were saved."""
        pending = self.journal.entries()
        if not pending:
            return 0
        try:
            self._apply(pending)
        except (sqlite3.Error, OSError):
            return 0
        self.journal.clear()
        return len(pending)

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
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
        revealed: bool = False,
        outcome: str = "",
    ) -> str:
        """Store an attempt and reschedule its drill's review; returns the attempt's uid.

        ``revealed``: the answer had been shown before this attempt; it is kept and marked, but
        it neither masters the drill nor moves its review. ``outcome``: what a wrong answer did
        (``tutor.grading.outcome``), for the class report.
        Never raises for a storage fault: the attempt is journalled (see ``take_notices``)."""
        entry = {
            "kind": "attempt",
            "uid": uuid.uuid4().hex,
            "drill": drill,
            "seed": seed,
            "answer": answer,
            "correct": bool(correct),
            "status": status,
            "hints_used": hints_used,
            "seconds": seconds,
            "at": (at or self.clock()).isoformat(),
            "revealed": bool(revealed),
            "outcome": outcome,
        }
        self._save(entry, "attempt")
        return str(entry["uid"])

    def attempts(self, drill: str | None = None) -> list[Attempt]:
        """All attempts, oldest first (of one drill when ``drill`` is given)."""
        sql = (
            "SELECT drill, seed, answer, correct, status, hints_used, seconds, at, uid, revealed,"
            " outcome FROM attempts"
        )
        rows = (
            self._rows(sql + " WHERE drill = ? ORDER BY id", (drill,))
            if drill
            else self._rows(sql + " ORDER BY id")
        )
        return [
            Attempt(
                r[0],
                r[1],
                r[2],
                bool(r[3]),
                r[4],
                r[5],
                r[6],
                datetime.fromisoformat(r[7]),
                r[8],
                bool(r[9]),
                r[10],
            )
            for r in rows
        ]

    def _card(self, drill: str) -> fsrs.Card | None:
        rows = self._rows("SELECT card FROM cards WHERE drill = ?", (drill,))
        return reviews.card_from_json(rows[0][0]) if rows else None

    def next_review(self, drill: str) -> datetime | None:
        """When ``drill`` is next due for review, or None if never attempted."""
        card = self._card(drill)
        return card.due if card else None

    def upcoming_reviews(self, now: datetime | None = None) -> list[tuple[str, datetime]]:
        """``(drill, due)`` of every review not yet due at ``now``, soonest first."""
        when = (now or self.clock()).isoformat()
        rows = self._rows("SELECT drill, due FROM cards WHERE due > ? ORDER BY due", (when,))
        return [(r[0], datetime.fromisoformat(r[1])) for r in rows]

    def due_reviews(self, now: datetime | None = None) -> list[str]:
        """Drill ids due for review at ``now``, most overdue first."""
        when = (now or self.clock()).isoformat()
        return [
            r[0] for r in self._rows("SELECT drill FROM cards WHERE due <= ? ORDER BY due", (when,))
        ]

    # --- mastery and chapters -------------------------------------------------------------

    def mastered_set(self) -> set[str]:
        """Every drill id answered correctly with at most ``MASTERY_MAX_HINTS`` hints, before
        its answer was shown."""
        rows = self._rows(
            "SELECT DISTINCT drill FROM attempts"
            " WHERE correct = 1 AND hints_used <= ? AND revealed = 0",
            (MASTERY_MAX_HINTS,),
        )
        return {r[0] for r in rows}

    def mastered(self, drill: str) -> bool:
        """Whether ``drill`` is mastered."""
        return drill in self.mastered_set()

    def mark_lesson_read(self, chapter: int) -> None:
        """Record that the lesson of ``chapter`` has been read (the first time counts)."""
        entry = {"kind": "lesson", "chapter": chapter, "at": self.clock().isoformat()}
        self._save(entry, "lesson read mark")

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
            self._try_write(
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
        self._try_write(
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


def _saved(n: int) -> str:
    plural = "s" if n != 1 else ""
    return f"Saved {n} attempt{plural} or lesson mark{plural} kept while progress could not be."


def describe(exc: BaseException) -> str:
    """A storage fault in a few plain words."""
    kind, detail = classify(exc)
    return {
        "full": "the disk is full",
        "unwritable": f"the progress file cannot be written ({detail})",
        "locked": "another program holds the progress file",
        "corrupt": "the progress file is damaged",
        "newer": "the progress file was written by a newer tutor",
    }[kind]


def _apply_entry(conn: sqlite3.Connection, entry: Entry) -> int:
    """Write one journal entry inside an open transaction; 1 if it was new, else 0."""
    if entry["kind"] == "lesson":
        cursor = conn.execute(
            "INSERT OR IGNORE INTO lessons (chapter, read_at) VALUES (?, ?)",
            (int(entry["chapter"]), str(entry["at"])),
        )
        return cursor.rowcount
    when = datetime.fromisoformat(entry["at"])
    drill, correct = str(entry["drill"]), bool(entry["correct"])
    hints, seconds = int(entry["hints_used"]), float(entry["seconds"])
    revealed = bool(entry.get("revealed", False))  # journals written before the column lack it
    cursor = conn.execute(
        "INSERT OR IGNORE INTO attempts (uid, drill, seed, answer, correct, status, hints_used,"
        " seconds, at, revealed, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            str(entry["uid"]),
            drill,
            int(entry["seed"]),
            str(entry["answer"]),
            int(correct),
            str(entry["status"]),
            hints,
            seconds,
            when.isoformat(),
            int(revealed),
            str(entry.get("outcome", "")),
        ),
    )
    if cursor.rowcount != 1:  # saved before (a journal replayed twice)
        return 0
    if revealed:  # practice after the answer was shown says nothing about recall
        return 1
    row = conn.execute("SELECT card FROM cards WHERE drill = ?", (drill,)).fetchone()
    card = reviews.card_from_json(row[0]) if row else reviews.new_card()
    card = reviews.review(card, reviews.rating_for(correct, hints, seconds), when)
    conn.execute(
        "INSERT OR REPLACE INTO cards (drill, card, due) VALUES (?, ?, ?)",
        (drill, card.to_json(), card.due.isoformat()),
    )
    return 1
