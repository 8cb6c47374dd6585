"""`tutor class report` over files written by the real `tutor progress export`."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from tutor.cli import main
from tutor.progress.store import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
BYTES = "memory-and-devices/dtype-size"  # built-in drills of chapter 1
BATCH = "memory-and-devices/batch-bytes"


def export(tmp_path, monkeypatch, name, attempts, chapters=(), lessons=()):
    """A learner's progress made in a real store, exported by the real command."""
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path / f"home-{name}"))
    with Store(clock=lambda: T0) as store:
        for drill, answer, correct, hints in attempts:
            status = "correct" if correct else "wrong"
            store.record_attempt(drill, 1, answer, correct, status, hints_used=hints, seconds=3)
        for chapter in lessons:
            store.mark_lesson_read(chapter)
        for chapter in chapters:  # a chapter is done once its quiz is mastered
            store.chapter_status(chapter, [BYTES], [BYTES])
    out = tmp_path / f"{name}.json"
    result = CliRunner().invoke(main, ["progress", "export", str(out)])
    assert result.exit_code == 0, result.output
    monkeypatch.delenv("TUTOR_HOME")
    return out


@pytest.fixture
def klass(tmp_path, monkeypatch):
    ana = export(tmp_path, monkeypatch, "ana", [
        (BYTES, "2", False, 0), (BYTES, "4", True, 0), (BATCH, "3 * 4", False, 0),
    ], chapters=[1], lessons=[1])  # fmt: skip
    ben = export(tmp_path, monkeypatch, "ben", [
        (BYTES, " 2 ", False, 0), (BYTES, "8", False, 0), (BYTES, "4", True, 3),
    ], lessons=[1])  # fmt: skip
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path / "teacher"))
    return ana, ben


def report(*args):
    return CliRunner().invoke(main, ["class", "report", *map(str, args)])


def test_text_report_per_learner_drill_and_chapter(klass):
    result = report(*klass)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "exported themselves; nothing in them is verified" in out
    table = out.split("\nLearners\n")[1].split("\nChapters\n")[0]
    learners = {
        line.split()[0]: line.split()
        for line in table.splitlines()
        if line.startswith(("ana ", "ben "))
    }
    assert learners["ana"][1:4] == ["3", "2", "1"]  # attempts, drills tried, mastered
    assert learners["ana"][4] == "1"  # chapter 1 done
    assert learners["ben"][1:5] == ["3", "1", "0", "-"]  # 3 hints: right but not mastered
    drill = next(line for line in out.splitlines() if line.startswith(BYTES))
    # chapter 1, 2 learners, 5 attempts, 2 correct, 1 mastered; " 2 " counts as "2"
    assert drill.split()[1:6] == ["1", "2", "5", "2", "1"]
    below = out.split("\nWrong answers, drill by drill\n")[1].split(f"\n{BYTES}")[1]
    assert "most common wrong answers:\n    2 ×\n        2\n    1 ×\n        8" in below


def test_json_report_is_one_object_and_bad_files_do_not_stop_it(klass, tmp_path):
    ana, ben = klass
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{nope")
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps({"format": "tutor-progress", "version": 2, "attempts": [{"uid": 1}]})
    )
    copy = tmp_path / "copy.json"
    copy.write_text(ana.read_text())
    result = report(ana, garbage, ben, other, copy, tmp_path / "missing.json", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert "nothing in them is verified" in data["self_reported"]
    assert [lr["learner"] for lr in data["learners"]] == ["ana", "ben"]
    errors = {e["file"]: e["error"] for e in data["errors"]}
    assert errors[str(garbage)].startswith("not a progress file: not JSON")
    assert errors[str(other)].startswith("not a progress file: attempts.0.")
    assert errors[str(copy)].startswith(f"repeats attempts of {ana}")
    assert errors[str(tmp_path / "missing.json")] == "no such file"
    drills = {d["drill"]: d for d in data["drills"]}
    assert drills[BATCH]["common_wrong"] == [{"answer": "3 * 4", "count": 1, "outcome": ""}]
    assert drills[BYTES]["mastered"] == 1 and drills[BYTES]["chapter"] == 1
    chapter1 = next(c for c in data["chapters"] if c["chapter"] == 1)
    assert chapter1["learners_done"] == 1 and chapter1["lessons_read"] == 2
    assert chapter1["attempts"] == 6 and chapter1["learners_active"] == 2
    assert chapter1["drills"] > 2  # every drill of chapter 1 the tutor loads


def test_plain_report_names_bad_files_on_stderr(klass, tmp_path):
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\xff\xfe")
    result = report(klass[0], garbage)
    assert result.exit_code == 1
    assert f"{garbage}: not a progress file: not UTF-8 text" in result.output
    assert "ana " in result.output


def test_csv_report_is_one_table(klass):
    result = CliRunner().invoke(main, ["class", "report", *map(str, klass), "--csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    by = {(r["table"], r["name"]): r for r in rows}
    assert by[("learner", "ben")]["attempts"] == "3"
    assert by[("drill", BYTES)]["common_wrong"] == "2 (2) | 8 (1)"
    assert by[("chapter", "chapter 1")]["learners_done"] == "1"
    assert "nothing in them is verified" in result.stderr


def test_csv_and_json_together_is_a_usage_error(klass):
    result = report(*klass, "--csv", "--json")
    assert result.exit_code == 2
    assert json.loads(result.output) == {"error": "choose one of --csv and --json"}
