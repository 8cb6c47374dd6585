"""`tutor progress export` / `import`: moving machines without losing or doubling anything."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from click.testing import CliRunner

from tutor.cli import main
from tutor.progress.store import Store
from tutor.progress.transfer import export_progress, import_progress

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def test_round_trip_merges_without_duplicates(tmp_path):
    with Store(tmp_path / "a.db", clock=lambda: T0) as a:
        a.record_attempt("p/x", 1, "ans", True, "correct", hints_used=0, seconds=5)
        a.record_attempt("p/y", 2, "bad", False, "wrong")
        a.mark_lesson_read(1)
        a.set_last_location("drill", "p/y")
        doc = export_progress(a)
    json.dumps(doc)  # JSON-ready
    with Store(tmp_path / "b.db", clock=lambda: T0) as b:
        b.record_attempt("p/z", 3, "mine", True, "correct")
        assert import_progress(b, doc) == {"attempts": 2, "attempts_known": 0}
        assert import_progress(b, doc) == {"attempts": 0, "attempts_known": 2}
        assert sorted(a.drill for a in b.attempts()) == ["p/x", "p/y", "p/z"]
        assert b.mastered("p/x") and b.lesson_read(1)
        assert b.last_location() == ("drill", "p/y")
        assert b.next_review("p/y") is not None


def test_cli_export_then_import_on_another_home(tmp_path, monkeypatch):
    runner = CliRunner()
    home1, home2 = tmp_path / "h1", tmp_path / "h2"
    monkeypatch.setenv("TUTOR_HOME", str(home1))
    with Store() as s:
        s.record_attempt("p/x", 4, "ans", True, "correct")
    out = tmp_path / "progress.json"
    result = runner.invoke(main, ["progress", "export", str(out)])
    assert result.exit_code == 0, result.output
    monkeypatch.setenv("TUTOR_HOME", str(home2))
    result = runner.invoke(main, ["progress", "import", str(out)])
    assert result.exit_code == 0, result.output
    assert "imported 1 new attempts" in result.output
    with Store() as s:
        assert [a.seed for a in s.attempts("p/x")] == [4]


def test_cli_import_refuses_a_bad_file_and_writes_nothing(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "tutor-progress", "version": 2, "attempts": [{"uid": 1}]}))
    result = runner.invoke(main, ["progress", "import", str(bad)])
    assert result.exit_code == 1
    assert "not a progress file: attempts.0" in result.output
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{nope")
    result = runner.invoke(main, ["progress", "import", str(garbage)])
    assert result.exit_code == 1 and "not a progress file" in result.output
    with Store() as s:
        assert s.attempts() == []
