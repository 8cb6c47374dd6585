"""Nothing hostile reaches the terminal through the CLI: escape sequences in pack text, file
names, learner output and exception messages are stripped; Rich markup is shown as written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli import main
from tutor.content.loader import load_pack

#: what must never be printed: ESC, BEL, CSI/OSC introducers and every other control but \t \n
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

EVIL = r"""pack: evil
title: "Evil \e]0;PWNED\a pack"
chapter: 1
drills:
  - id: pick
    kind: choice
    title: "[bold red]x[/] \e[2J\e]8;;http://evil.example\e\\link\e]8;;\e\\"
    prompt: "Pick \e[31mred\e[0m"
    hints: ["\e]0;hint\a[link=http://evil]hint[/link]"]
    choices:
      - answer: "yes \e]0;T\a"
        correct: true
      - answer: "no"
        why: "because \e[2J\e[3J[red]why[/red]"
    explain: "\x9b2J done"
"""


@pytest.fixture
def evil(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "evil"
    folder.mkdir()
    (folder / "evil.yaml").write_text(EVIL)
    monkeypatch.setenv("TUTOR_PACKS", str(folder))
    monkeypatch.setenv("COLUMNS", "200")
    return folder


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    return result, result.output


def test_pack_text_is_stripped_when_loaded(evil):
    pack = load_pack(evil / "evil.yaml")
    drill = pack.drills[0]
    assert pack.title == "Evil  pack"
    assert drill.title == "[bold red]x[/] link"
    assert drill.prompt == "Pick red"
    assert [c.answer for c in drill.choices] == ["yes ", "no"]
    assert drill.choices[1].why == "because [red]why[/red]"
    assert drill.explain == " done"


def test_drill_list_prints_no_controls_and_shows_markup_literally(evil):
    result, out = run("drill", "list")
    assert result.exit_code == 0, out
    assert not RAW.search(out)
    assert "[bold red]x[/] link" in out
    listed = json.loads(run("drill", "list", "--json")[1].splitlines()[-1])
    assert {"id": "evil/pick", "chapter": 1, "kind": "choice", "title": "[bold red]x[/] link"} in (
        listed
    )


def test_drill_run_feedback_has_no_controls(evil):
    result, out = run("drill", "run", "evil/pick", "--answer", "no", "--seed", "3")
    assert result.exit_code == 0, out
    assert "because [red]why[/red]" in out and not RAW.search(out)


def test_pack_check_problems_have_no_controls(tmp_path):
    bad = tmp_path / "bad\x1b]0;file\x07.yaml"
    bad.write_text(EVIL.replace("chapter: 1", 'chapter: 1\n"\\e]0;key\\a": 1'))
    result, out = run("pack", "check", "--no-run", str(bad))
    assert result.exit_code == 1
    assert "bad" in out and ".yaml" in out and not RAW.search(out)


def test_exec_output_and_exception_have_no_controls(tmp_path):
    code = tmp_path / "evil.py"
    code.write_text(
        'print("out\\x1b]0;PWNED\\x07put\\x1b[2J")\n'
        'import sys; print("err\\x1b]8;;http://x\\x1b\\\\or", file=sys.stderr)\n'
        'raise ValueError("bad\\x1b]0;T\\x07 [bold]value[/]")\n'
    )
    result, out = run("exec", str(code))
    assert result.exit_code == 0, out
    assert "output" in out and "error" in out and "bad [bold]value[/]" in out
    assert not RAW.search(out)
