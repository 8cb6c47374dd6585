"""`tutor pack`, `tutor drill list` and `tutor lesson list` through the real CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tutor.cli import main
from tutor.commands.drill import drill
from tutor.commands.lesson import lesson
from tutor.commands.pack import pack

PACKS = Path(__file__).parent / "packs"


def schema_only() -> list[str]:
    """These tests are about the schema stage: skip the sandbox runs."""
    return ["--no-run"]


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_groups_are_click_groups_others_can_extend():
    for group, name in ((pack, "pack"), (drill, "drill"), (lesson, "lesson")):
        assert isinstance(group, click.Group) and group.name == name
    assert {"check", "schema", "new"} <= set(pack.commands)


@pytest.mark.slow
def test_pack_new_then_check_in_a_real_process(tmp_path):
    """The scaffold passes the whole check, the sandbox stage included when it exists."""
    tutor = [sys.executable, "-m", "tutor"]
    new = subprocess.run(
        [*tutor, "pack", "new", "demo"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert new.returncode == 0, new.stderr
    assert (tmp_path / "demo.yaml").read_text().startswith("# yaml-language-server: $schema=")
    check = subprocess.run(
        [*tutor, "pack", "check", "demo.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stderr
    assert check.stdout.strip().endswith("1 pack, 5 drills: ok")


def test_pack_new_refuses_to_overwrite(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "demo.yaml").write_text("mine\n")
    result = run("pack", "new", "demo")
    assert result.exit_code == 1
    assert "already exists" in result.output
    assert (tmp_path / "demo.yaml").read_text() == "mine\n"


def test_pack_check_reports_problems_and_fails(tmp_path):
    bad = PACKS / "errors" / "unknown-kind.yaml"
    result = run("pack", "check", *schema_only(), str(bad), str(PACKS / "mixed" / "a-good.yaml"))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].endswith(
        "unknown-kind.yaml:6:11: drills[0].kind: unknown kind `predcit` (did you mean `predict`?)"
    )
    assert lines[-1] == "1 pack, 1 drill: 2 problems"
    assert result.stdout == ""


def test_pack_check_json():
    result = run("pack", "check", *schema_only(), "--json", str(PACKS / "mixed"))
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False
    assert [p["pack"] for p in data["packs"]] == ["good-one", "good-two"]
    assert [p["drills"] for p in data["packs"]] == [1, 1]
    (problem,) = data["problems"]
    assert {k: problem[k] for k in ("line", "col", "field")} == {
        "line": 9,
        "col": 5,
        "field": "drills[0].tolerence",
    }
    good = [str(PACKS / "mixed" / name) for name in ("a-good.yaml", "c-good.yaml")]
    ok = run("pack", "check", *schema_only(), "--json", *good)
    assert ok.exit_code == 0
    assert json.loads(ok.stdout) == {
        "ok": True,
        "packs": [
            {"pack": "good-one", "file": good[0], "drills": 1},
            {"pack": "good-two", "file": good[1], "drills": 1},
        ],
        "problems": [],
        "skipped": [],
    }


def test_pack_check_compiles_code():
    # the PACKS.md example writes its fix drill's code as "...repaired loop..."
    result = run("pack", "check", *schema_only(), str(PACKS / "packs-example.yaml"))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].endswith(
        "packs-example.yaml:78:10: drills[4].reference: not valid Python: invalid syntax"
    )


def test_pack_check_needs_paths():
    result = run("pack", "check")
    assert result.exit_code == 2
    assert "--builtin" in result.output


def test_pack_check_missing_path(tmp_path):
    result = run("pack", "check", *schema_only(), str(tmp_path / "nope.yaml"))
    assert result.exit_code == 1
    assert "no such pack file or folder" in result.stderr


def test_pack_schema_is_json():
    result = run("pack", "schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["title"] == "tutor drill pack"


def test_drill_list_json_with_pack_option_and_env(tmp_path, monkeypatch):
    shutil.copy(PACKS / "mixed" / "c-good.yaml", tmp_path / "c.yaml")
    monkeypatch.setenv("TUTOR_PACKS", str(tmp_path))
    result = run("--pack", str(PACKS / "mixed" / "a-good.yaml"), "drill", "list", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    mine = [r for r in rows if r["id"] in ("good-one/sum", "good-two/order")]
    assert mine == [
        {"id": "good-one/sum", "chapter": 1, "kind": "predict", "title": "Sum"},
        {"id": "good-two/order", "chapter": 2, "kind": "order", "title": "Order"},
    ]
    assert all(set(r) == {"id", "chapter", "kind", "title"} for r in rows)


def test_drill_list_table_and_skipped_packs():
    result = run("--pack", str(PACKS / "mixed"), "drill", "list")
    assert result.exit_code == 0
    assert "good-one/sum" in result.stdout
    assert "skipped: " in result.stderr and "b-broken.yaml:9:5" in result.stderr


def test_lesson_list_json_shape():
    result = run("lesson", "list", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert isinstance(rows, list)
    for row in rows:
        assert set(row) == {"chapter", "title", "snippets", "labs"}
        assert isinstance(row["snippets"], int) and isinstance(row["labs"], list)
    assert [r["chapter"] for r in rows] == sorted(r["chapter"] for r in rows)


def test_lesson_list_json_of_known_lessons(tmp_path, monkeypatch):
    import tutor.content.lessons as lessons_module

    shutil.copytree(Path(__file__).parent / "lessons" / "good", tmp_path / "lessons")
    monkeypatch.setattr(lessons_module, "PROJECT_ROOT", tmp_path)
    result = run("lesson", "list", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [
        {"chapter": 1, "title": "Tensors", "snippets": 3, "labs": ["stride"]},
        {"chapter": 2, "title": "Autograd", "snippets": 0, "labs": []},
    ]


def test_pack_check_builtin(monkeypatch):
    import tutor.content.sources as sources

    monkeypatch.setattr(sources, "builtin_pack_dir", lambda: PACKS / "mixed")
    result = run("pack", "check", *schema_only(), "--builtin", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [p["pack"] for p in data["packs"]] == ["good-one", "good-two"]
    assert [Path(p["file"]).name for p in data["problems"]] == ["b-broken.yaml"]


def test_counts_read_as_english():
    from tutor.content.wording import plural

    assert [plural(1, "pack"), plural(2, "pack"), plural(1, "call"), plural(2048, "call")] == [
        "1 pack",
        "2 packs",
        "1 call",
        "2,048 calls",
    ]
