"""The store never silently drops an attempt: full disk, broken files, read-only folders,
two tutors opening a fresh home at once. Real files, a real tiny filesystem, real processes."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli import main
from tutor.progress.database import StoreError
from tutor.progress.opening import fresh_start, open_store
from tutor.progress.schema import SCHEMA_VERSION
from tutor.progress.store import Store


def record(store: Store, drill: str = "p/d", correct: bool = True) -> str:
    return store.record_attempt(drill, 7, "answer", correct, "correct" if correct else "wrong")


def a_real_database(path: Path, drills: tuple[str, ...] = ("p/old",)) -> None:
    with Store(path) as store:
        for drill in drills:
            record(store, drill)


# --- a full disk ------------------------------------------------------------------------


def test_full_disk_keeps_the_attempt_and_saves_it_when_space_returns(tiny_fs):
    path = tiny_fs.path / "progress.db"
    store = Store(path)
    first = record(store, "p/first")
    filler = tiny_fs.fill()
    kept = [record(store, f"p/full{i}") for i in range(3)]  # never raises
    notices = store.take_notices()
    assert notices and notices[0].severity == "warning"
    assert "could not be saved: the disk is full" in notices[0].text
    assert store.pending == 3
    filler.unlink()
    last = record(store, "p/after")
    assert "Saved 3 attempts" in store.take_notices()[0].text
    assert store.pending == 0
    assert [a.uid for a in store.attempts()] == [first, *kept, last]
    assert store.mastered("p/full1") and store.next_review("p/full1") is not None
    store.close()


def test_attempts_journalled_in_one_session_are_saved_by_the_next(tmp_path):
    path = tmp_path / "progress.db"
    a_real_database(path, ("p/old",))
    good = path.read_bytes()
    path.write_bytes(b"damaged" * 100)
    store, problem = open_store(path)  # a session on a stand-in: attempts go to the journal
    uid = record(store, "p/kept")
    store.close()
    assert json.loads(store.journal.path.read_text().splitlines()[0])["uid"] == uid
    path.write_bytes(good)  # the learner puts their backup back
    with Store(path) as again:
        assert "Saved 1 attempt" in again.take_notices()[0].text
        assert [a.drill for a in again.attempts()] == ["p/old", "p/kept"]
    assert not store.journal.path.exists()


# --- broken, newer, read-only files -----------------------------------------------------


@pytest.mark.parametrize("damage", ["garbage", "truncated", "zeroed-header"])
def test_a_damaged_file_is_kept_and_the_tutor_carries_on(tmp_path, damage):
    path = tmp_path / "progress.db"
    a_real_database(path)
    data = path.read_bytes()
    broken = {
        "garbage": b"not a database at all " * 200,
        "truncated": data[: len(data) // 2],
        "zeroed-header": b"\0" * 100 + data[100:],
    }[damage]
    path.write_bytes(broken)
    with pytest.raises(StoreError) as info:
        Store(path)
    assert info.value.kind == "corrupt" and str(path) in info.value.message
    store, problem = open_store(path)
    assert problem is not None and problem.kind == "corrupt"
    assert not store.durable and "carries on" in store.why
    uid = record(store, "p/meanwhile")
    assert store.mastered("p/meanwhile")  # the session works as usual
    assert path.read_bytes() == broken  # the file is kept as it was
    fresh, backup = fresh_start(path)
    assert backup.read_bytes() == broken and backup.name.startswith("progress.db.broken-")
    assert [a.uid for a in fresh.attempts()] == [uid]  # what was done meanwhile is saved
    fresh.close()


def test_a_newer_file_is_not_touched(tmp_path):
    path = tmp_path / "progress.db"
    a_real_database(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.close()
    before = path.read_bytes()
    store, problem = open_store(path)
    assert problem.kind == "newer" and "newer version of tutor" in problem.message
    record(store)
    assert path.read_bytes() == before
    store.close()


def test_a_read_only_folder_opens_a_copy_and_keeps_new_attempts(tiny_fs):
    path = tiny_fs.path / "progress.db"
    a_real_database(path, ("p/old",))
    tiny_fs.read_only()
    store, problem = open_store(path)
    assert problem is not None and problem.kind == "unwritable"
    assert store.mastered("p/old")  # what was there is shown
    record(store, "p/new")
    assert store.mastered("p/new")
    notices = store.take_notices()
    assert notices and "lost when you quit" in notices[0].text  # said plainly, once
    record(store, "p/newer")
    assert store.take_notices() == []
    store.close()


def test_progress_export_says_what_is_wrong_without_a_traceback(tutor_home):
    (tutor_home / "progress.db").write_bytes(b"garbage" * 100)
    result = CliRunner().invoke(main, ["progress", "export"])
    assert result.exit_code == 1
    assert "is damaged or not a progress database" in result.output
    assert "Traceback" not in result.output and result.exception is not None
    assert (tutor_home / "progress.db").read_bytes() == b"garbage" * 100


def test_progress_export_of_a_newer_file(tutor_home):
    conn = sqlite3.connect(tutor_home / "progress.db")
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    result = CliRunner().invoke(main, ["progress", "export"])
    assert result.exit_code == 1 and "newer version of tutor" in result.output


# --- two tutors at once, and file modes -------------------------------------------------

OPEN_AND_RECORD = r"""
import sys
from pathlib import Path
from tutor.progress.store import Store
with Store(Path(sys.argv[1])) as store:
    store.record_attempt("p/d", 1, "a", True, "correct")
print("ok")
"""


def test_tutors_opening_a_fresh_home_at_once_all_succeed(tmp_path):
    for round_ in range(3):
        path = tmp_path / f"home{round_}" / "progress.db"
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_AND_RECORD, str(path)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(6)
        ]
        outs = [p.communicate(timeout=120) for p in procs]
        assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
        with Store(path) as store:
            assert len(store.attempts()) == 6


def test_files_are_private_to_their_owner(tutor_home, tmp_path):
    """0600 files in a 0700 folder whatever the umask: without bubblewrap, learner code (as your
    user, where there is no separate uid) sees the real filesystem."""
    old_umask = os.umask(0)
    try:
        _files_are_private(tutor_home, tmp_path)
    finally:
        os.umask(old_umask)


def _files_are_private(tutor_home, tmp_path):
    path = tutor_home / "sub" / "progress.db"
    store, _ = open_store(path)
    record(store)
    store.journal.add({"kind": "lesson", "chapter": 1, "at": "2026-01-01T00:00:00+00:00"})
    for file in (path, store.journal.path, *path.parent.glob("progress.db-*")):
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    store.close()
    out = tmp_path / "export.json"
    assert CliRunner().invoke(main, ["progress", "export", str(out)]).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_damaged_journal_lines_are_skipped(tmp_path):
    path = tmp_path / "progress.db"
    a_real_database(path, ())
    journal = path.with_name("progress-pending.jsonl")
    good = {
        "kind": "attempt",
        "uid": "u1",
        "drill": "p/d",
        "seed": 1,
        "answer": "a",
        "correct": True,
        "status": "correct",
        "hints_used": 0,
        "seconds": 1.0,
        "at": "2026-01-01T00:00:00+00:00",
    }
    bad = {**good, "uid": "u2", "seed": "not a number"}
    journal.write_text(
        "\n".join([json.dumps(good), "{half a line", json.dumps(bad), json.dumps(good)]) + "\n"
    )
    with Store(path) as store:
        assert [a.uid for a in store.attempts()] == ["u1"]
    assert not journal.exists()


def test_progress_import_onto_a_full_disk_says_so_and_imports_nothing(tiny_fs, monkeypatch):
    source = tiny_fs.path.parent / "source.db"
    a_real_database(source, tuple(f"p/d{i}" for i in range(40)))
    exported = tiny_fs.path.parent / "export.json"
    with Store(source) as store:
        from tutor.progress.transfer import export_progress

        exported.write_text(json.dumps(export_progress(store)))
    home = tiny_fs.path / "home"
    home.mkdir()
    monkeypatch.setenv("TUTOR_HOME", str(home))
    a_real_database(home / "progress.db", ())
    filler = tiny_fs.fill()
    result = CliRunner().invoke(main, ["progress", "import", str(exported)])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("tutor: ") and "disk is full" in result.output
    filler.unlink()
    with Store(home / "progress.db") as store:
        assert store.attempts() == []
