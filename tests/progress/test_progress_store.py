"""The progress store: attempts, mastery, chapters, reviews, migrations, location."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from tutor.progress.database import StoreError
from tutor.progress.schema import MIGRATIONS, SCHEMA_VERSION
from tutor.progress.store import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Clock:
    """A clock tests move by hand."""

    def __init__(self, now: datetime = T0):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(tmp_path, clock):
    with Store(tmp_path / "p.db", clock=clock) as s:
        yield s


def test_default_path_is_in_tutor_home(tutor_home):
    with Store() as s:
        assert s.path == tutor_home / "progress.db"
        assert s.path.exists()


def test_attempts_are_recorded_in_order(store):
    store.record_attempt("p/a", 7, "(1, 2)", False, "wrong", hints_used=0, seconds=3.5)
    store.record_attempt("p/a", 7, "(2, 1)", True, "correct", hints_used=1, seconds=9.0)
    store.record_attempt("p/b", 1, "x", True, "correct")
    got = store.attempts("p/a")
    assert [(a.answer, a.correct, a.hints_used, a.seed) for a in got] == [
        ("(1, 2)", False, 0, 7),
        ("(2, 1)", True, 1, 7),
    ]
    assert got[0].seconds == 3.5 and got[0].at == T0
    assert len(store.attempts()) == 3


def test_mastery_needs_a_correct_answer_with_at_most_one_hint(store):
    store.record_attempt("p/a", 1, "x", False, "wrong")
    assert not store.mastered("p/a")
    store.record_attempt("p/a", 1, "y", True, "correct", hints_used=2)
    assert not store.mastered("p/a")
    store.record_attempt("p/a", 2, "y", True, "correct", hints_used=1)
    assert store.mastered("p/a")


def test_chapter_done_needs_lesson_and_quiz(store):
    drills = ["c/a", "c/b", "c/q1", "c/q2"]
    quiz = ["c/q1", "c/q2"]
    st = store.chapter_status(1, drills, quiz)
    assert (st.lesson_read, st.mastered, st.total, st.quiz_mastered, st.quiz_total) == (
        False,
        0,
        4,
        0,
        2,
    )
    assert not st.done
    for q in quiz:
        store.record_attempt(q, 0, "a", True, "correct")
    assert not store.chapter_status(1, drills, quiz).done  # lesson not read yet
    store.mark_lesson_read(1)
    st = store.chapter_status(1, drills, quiz)
    assert st.done and st.mastered == 2
    assert store.chapters_done() == {1}
    # a chapter with no quiz can never be "done" by accident
    store.mark_lesson_read(2)
    assert not store.chapter_status(2, ["d/x"], []).done


def test_reviews_come_due_on_a_later_day(store, clock):
    store.record_attempt("p/a", 1, "x", True, "correct", seconds=10)
    store.record_attempt("p/b", 1, "x", False, "wrong", seconds=10)
    assert store.due_reviews() == []
    due_a, due_b = store.next_review("p/a"), store.next_review("p/b")
    assert due_b < due_a  # a wrong answer comes back sooner
    clock.now = due_b
    assert store.due_reviews() == ["p/b"]
    clock.now = due_a + timedelta(seconds=1)
    assert store.due_reviews() == ["p/b", "p/a"]
    # answering the review reschedules it into the future
    store.record_attempt("p/b", 99, "x", True, "correct", seconds=10)
    assert store.due_reviews() == ["p/a"]


def test_last_location(store):
    assert store.last_location() is None
    store.set_last_location("lesson", "1")
    store.set_last_location("drill", "p/a")
    assert store.last_location() == ("drill", "p/a")


def test_progress_survives_reopening(tmp_path, clock):
    with Store(tmp_path / "p.db", clock=clock) as s:
        s.record_attempt("p/a", 1, "x", True, "correct")
        s.mark_lesson_read(3)
    with Store(tmp_path / "p.db", clock=clock) as s:
        assert s.mastered("p/a") and s.lesson_read(3)


def test_wal_mode_and_schema_version(store):
    conn = sqlite3.connect(store.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_old_database_is_migrated_in_place(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0])
    conn.execute("PRAGMA user_version = 1")
    conn.execute(
        "INSERT INTO attempts (uid, drill, seed, answer, correct, status, at)"
        " VALUES ('u1', 'p/a', 1, 'x', 1, 'correct', '2026-01-01T00:00:00+00:00')"
    )
    conn.execute("INSERT INTO lessons VALUES (1, '2026-01-01T00:00:00+00:00')")
    conn.commit()
    conn.close()
    with Store(path) as s:
        assert s.mastered("p/a")
        st = s.chapter_status(1, ["p/a"], ["p/a"])
        assert st.done and s.chapters_done() == {1}  # table from migration 2 exists


def test_newer_database_is_refused(tmp_path):
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.close()
    with pytest.raises(StoreError, match="newer version of tutor") as info:
        Store(path)
    assert info.value.kind == "newer"


def test_an_attempt_after_the_answer_was_shown_is_kept_but_does_not_count(tmp_path, clock):
    path = tmp_path / "p.db"
    with Store(path, clock=clock) as s:
        s.record_attempt("p/a", 1, "x", True, "correct", revealed=True)
        (attempt,) = s.attempts("p/a")
        assert attempt.revealed and attempt.correct
        assert not s.mastered("p/a") and s.next_review("p/a") is None
        assert not s.chapter_status(1, ["p/a"], ["p/a"]).quiz_mastered
    with Store(path, clock=clock) as s:  # read back from the file
        assert s.attempts("p/a")[0].revealed and not s.mastered("p/a")
        s.record_attempt("p/a", 2, "x", True, "correct")
        assert s.mastered("p/a") and s.next_review("p/a") is not None
        assert [a.revealed for a in s.attempts("p/a")] == [True, False]


def test_a_revealed_attempt_survives_export_and_import(tmp_path, clock):
    from tutor.progress.transfer import export_progress, import_progress

    with Store(tmp_path / "a.db", clock=clock) as s:
        s.record_attempt("p/a", 1, "x", True, "correct", revealed=True)
        doc = export_progress(s)
    assert doc["attempts"][0]["revealed"] is True
    with Store(tmp_path / "b.db", clock=clock) as s:
        import_progress(s, doc)
        assert s.attempts("p/a")[0].revealed and not s.mastered("p/a")


def test_a_version_2_database_gains_the_revealed_column(tmp_path):
    path = tmp_path / "v2.db"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0] + MIGRATIONS[1])
    conn.execute("PRAGMA user_version = 2")
    conn.execute(
        "INSERT INTO attempts (uid, drill, seed, answer, correct, status, at)"
        " VALUES ('u1', 'p/a', 1, 'x', 1, 'correct', '2026-01-01T00:00:00+00:00')"
    )
    conn.commit()
    conn.close()
    with Store(path) as s:
        assert s.mastered("p/a") and not s.attempts("p/a")[0].revealed
