"""docs/packs.md stays true: its YAML examples load, and its error example shows exactly what
`tutor pack check` prints today."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from tutor.cli import main
from tutor.content.models import Pack
from tutor.content.pack_lint import check_paths
from tutor.content.scaffold import scaffold
from tutor.settings import PROJECT_ROOT

DOC = PROJECT_ROOT / "docs" / "packs.md"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```$", re.S | re.M)


def blocks(info: str) -> list[str]:
    """The contents of every fenced block of the doc whose info string is ``info``."""
    return [body for kind, body in FENCE.findall(DOC.read_text()) if kind.strip() == info]


def test_the_doc_has_examples_of_every_kind():
    drills = [yaml.safe_load(b)[0]["kind"] for b in blocks("yaml drill")]
    assert sorted(drills) == ["choice", "code", "fix", "order", "predict"]
    assert len(blocks("yaml")) >= 1 and len(blocks("yaml error")) == 1


def check_cleanly(text: str, tmp_path: Path) -> Pack:
    """The pack passes the whole torch-free stage of `tutor pack check` (code compiling too)."""
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    packs, problems = check_paths([path])
    assert [str(p) for p in problems] == []
    return packs[0]


@pytest.mark.parametrize("text", blocks("yaml"))
def test_whole_pack_examples_check_cleanly(text, tmp_path):
    assert check_cleanly(text, tmp_path).drills


@pytest.mark.parametrize("text", blocks("yaml drill"))
def test_drill_examples_check_cleanly(text, tmp_path):
    indented = "".join("  " + line + "\n" if line else "\n" for line in text.splitlines())
    pack = check_cleanly(f"pack: doc\ntitle: Doc\nchapter: 1\ndrills:\n{indented}", tmp_path)
    assert len(pack.drills) == 1


def test_error_example_matches_the_tool_output(tmp_path, monkeypatch):
    (broken,) = blocks("yaml error")
    docs_output = next(
        b for b in blocks("text") if b.startswith("broken.yaml:")
    )  # the block right after it
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.yaml").write_text(broken, encoding="utf-8")
    result = CliRunner().invoke(main, ["pack", "check", "broken.yaml"])
    assert result.exit_code == 1
    assert result.stderr == docs_output


def test_schema_line_matches_the_scaffold():
    line = next(b for b in blocks("text") if "yaml-language-server" in b)
    assert scaffold("x", "x.yaml").startswith(line)


def test_entry_point_example_is_valid_toml():
    (text,) = blocks("toml")
    data = tomllib.loads(text)
    assert data["project"]["entry-points"]["tutor.packs"] == {"my-course": "my_course:PACKS"}


def test_doc_is_where_the_scaffold_points():
    assert "docs/packs.md" in scaffold("x", "x.yaml")
    assert Path(DOC).is_file()
