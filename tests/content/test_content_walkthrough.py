"""docs/packs.md's instructor walkthrough, "From an empty folder to a class report", run as
written: every `tutor` line of its shell blocks, in order, in an empty folder (the lines that
keep running, open the tutor or take minutes are only parsed)."""

from __future__ import annotations

import glob
import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from tutor.cli import main

DOC = Path(__file__).parents[2] / "docs" / "packs.md"
SECTION = "## From an empty folder to a class report"
#: lines only parsed: they keep watching, open the tutor, or sweep for minutes
PARSED_ONLY = ("--watch", "pack try", "--trials")
MINE = "def sum(a):\n    return ones(a.shape[0]) @ a[:, None]\n"


def walkthrough() -> tuple[list[str], str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    example = re.findall(r"```yaml\n(pack: chained\n.*?)```", text, re.S)[0]
    return [line for line in lines if line.startswith("tutor ")], example


def parse_only(args: list[str]) -> None:
    """The command and its options exist: with ``--help`` last, click parses every option given
    (an unknown one is exit status 2) and prints the help instead of running."""
    result = CliRunner().invoke(main, [*args, "--help"])
    assert result.exit_code == 0, (args, result.output)


def test_the_walkthrough_runs_as_written(tmp_path, monkeypatch, sandbox):
    lines, example = walkthrough()
    assert any("class report" in line for line in lines) and any(
        "pack new" in line for line in lines
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path / "home"))
    (tmp_path / "puzzles").mkdir()
    folder = tmp_path / "puzzles"
    monkeypatch.chdir(folder)
    (folder / "mine.py").write_text(MINE)
    ran = []
    for line in lines:
        command, _, out = line.partition(" > ")
        args = shlex.split(command)[1:]
        if any(flag in command for flag in PARSED_ONLY):
            parse_only(args)
            continue
        if args[:2] == ["progress", "export"]:  # the learner's side: a recorded answer first
            record = ["drill", "run", "puzzles/sum", "--pack", "puzzles.yaml", "--seed", "1",
                      "--answer-file", "mine.py", "--record"]  # fmt: skip
            assert CliRunner().invoke(main, record).exit_code == 0
        args = [a for arg in args for a in (sorted(glob.glob(arg)) if "*" in arg else [arg])]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, (line, result.output)
        if out:
            Path(out.strip()).write_text(result.stdout)
        if args[:2] == ["pack", "new"]:  # the author replaces the scaffold's drills
            (folder / "puzzles.yaml").write_text(example.replace("pack: chained", "pack: puzzles"))
        if args[:2] == ["progress", "export"]:
            (folder / "submissions").mkdir()
            (folder / args[2]).rename(folder / "submissions" / args[2])
        ran.append((line, result.stdout))
    report = next(out for line, out in ran if line.endswith("submissions/*.json"))
    assert "puzzles/sum" in report and "Gradebook" in report
    verified = ran[-1][1]
    assert "1 mastering attempt replayed through the grader, 1 reproduced" in verified
