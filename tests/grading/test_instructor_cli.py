"""The command line an instructor porting a pack uses: `--pack` after the subcommand, a pack id
that a built-in pack already has, `drill show` with the given code, rules and sizes, `drill run
--record`, and the feedback that counts cases and edges apart from random inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.grading.conftest import PACKS, refs
from tutor.cli import main
from tutor.grading.codecheck import _shape_category
from tutor.grading.engine import grade
from tutor.progress.store import Store

PUZZLES = str(PACKS / "chained-puzzles.yaml")
WRONG_SUM = "def sum(a):\n    return ones(a.shape[0]) @ a\n"


def tutor(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize(
    "args",
    [
        ("drill", "list", "--pack", PUZZLES, "--json"),
        ("drill", "show", "--pack", PUZZLES, "chained-puzzles/sum", "--seed", "1"),
        ("drill", "show", "chained-puzzles/sum", "--seed", "1", "--pack", PUZZLES),
        ("progress", "export", "--pack", PUZZLES),
        ("class", "report", "--pack", PUZZLES, "--help"),
        ("pack", "check", "--no-run", "--pack", PUZZLES, PUZZLES),
    ],
)
def test_pack_is_accepted_after_every_subcommand_that_reads_packs(args):
    result = tutor(*args)
    assert result.exit_code == 0, result.output
    if args[:2] == ("drill", "list"):
        assert "chained-puzzles/sum" in {d["id"] for d in json.loads(result.output)}


def test_drill_show_gives_the_setup_a_learner_sees_the_rules_and_the_sizes():
    result = tutor("drill", "show", "chained-puzzles/compress", "--pack", PUZZLES, "--seed", "3",
                   "--json")  # fmt: skip
    shown = json.loads(result.output)
    assert shown["functions"] == ["triu(j)", "cumsum(a)"]
    assert shown["setup"] == ""  # the references compress may call are not shown
    assert shown["rules"] == {"allow": ["torch.arange", "torch.where"], "forbid": ["for", "while"],
                              "max_lines": 1}  # fmt: skip
    kinds = [t["kind"] for t in shown["trials"]]
    assert kinds == ["case", "edge", "edge", "random", "random", "random", "random"]
    assert [t["sizes"] for t in shown["trials"][1:3]] == [{"i": 1}, {"i": 2}]
    other = json.loads(tutor("drill", "show", "chained-puzzles/compress", "--pack", PUZZLES,
                             "--seed", "4", "--json").output)  # fmt: skip
    assert other["trials"] != shown["trials"]  # two seeds try different sizes, visibly
    plain = tutor("drill", "show", "chained-puzzles/compress", "--pack", PUZZLES, "--seed", "3")
    assert "You may call: `triu(j)`, `cumsum(a)`." in plain.output
    assert "This attempt tries 1 case of the drill's own; edge sizes (i=1) (i=2); 4 random" in (
        plain.output
    )


def test_pack_check_refuses_an_id_a_builtin_pack_has_naming_both_files(tmp_path: Path):
    mine = tmp_path / "mine.yaml"
    mine.write_text(
        "# my port\npack:  tensor-puzzles\ntitle: Mine\nchapter: 1\ndrills:\n"
        "  - {id: p, kind: predict, prompt: x, ask: '1'}\n"
    )
    result = tutor("pack", "check", "--no-run", str(mine))
    assert result.exit_code == 1
    assert (f"{mine}:2:8: pack: pack id `tensor-puzzles` is already used by the built-in pack "
            "drills/01-puzzles.yaml: the tutor loads the built-in one and skips this file; "
            "choose another id") in result.output  # fmt: skip
    other = tmp_path / "theirs.yaml"
    other.write_text(mine.read_text().replace("tensor-puzzles", "shared-id"))
    (tmp_path / "again").mkdir()
    again = tmp_path / "again" / "copy.yaml"
    again.write_text(other.read_text())
    result = tutor("pack", "check", "--no-run", "--pack", str(other), str(again))
    assert "is already used by the pack" in result.output and "theirs.yaml" in result.output


def test_drill_run_records_only_when_asked(sandbox, tutor_home):
    base = ("drill", "run", "chained-puzzles/sum", "--pack", PUZZLES, "--seed", "2",
            "--answer", WRONG_SUM, "--json")  # fmt: skip
    quiet = json.loads(tutor(*base).output)
    assert "recorded" not in quiet
    assert not (tutor_home / "progress.db").exists()
    loud = json.loads(tutor(*base, "--record").output)
    right = tutor("drill", "run", "chained-puzzles/sum", "--pack", PUZZLES, "--seed", "3",
                  "--answer", "def sum(a):\n    return ones(a.shape[0]) @ a[:, None]\n",
                  "--record")  # fmt: skip
    assert right.exit_code == 0 and "recorded in your progress" in right.output
    with Store() as store:
        attempts = store.attempts()
        mastered = store.mastered_set()
    assert [(a.seed, a.correct, a.outcome) for a in attempts] == [(2, False, "wrong[0]"),
                                                                 (3, True, "")]  # fmt: skip
    assert attempts[0].uid == loud["recorded"] and attempts[0].answer == WRONG_SUM
    assert mastered == {"chained-puzzles/sum"}


def test_feedback_counts_cases_and_edges_apart_from_random_inputs(sandbox):
    puzzles = refs("chained-puzzles.yaml")
    g = grade(puzzles["compress"], "def compress(g, v, i):\n    return v\n", 5, sandbox)
    assert g.feedback.startswith("Failed ")
    assert "of 7 inputs (1 of the drill's own case, 2 edge sizes and 4 random)" in g.feedback
    ok = grade(puzzles["ones"], "def ones(i):\n    return torch.arange(i) * 0 + 1\n", 5, sandbox)
    assert ok.feedback == ("Correct: agrees with the reference on 6 inputs (2 edge sizes and 4 "
                           "random).")  # fmt: skip


def test_one_value_for_many_is_a_shape_mistake_not_a_broadcasting_one(sandbox):
    assert _shape_category({"got": [1], "expected": [4]}) == "shape"
    assert _shape_category({"got": [4, 4], "expected": [4]}) == "broadcasting"
    assert _shape_category({"got": [1, 3, 2], "expected": [3, 2]}) == "broadcasting"
    puzzles = refs("chained-puzzles.yaml")
    g = grade(puzzles["cumsum"], "def cumsum(a):\n    return ones(1) @ a[:1]\n", 5, sandbox)
    assert g.category != "broadcasting", g.feedback
