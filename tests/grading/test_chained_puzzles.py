"""The sixteen chained tensor puzzles (tests/grading/packs/chained-puzzles.yaml), graded for
real: the pack passes `tutor pack check`, honest answers that call earlier puzzles' functions
pass, and the escapes a clever learner tries fail under the drills' own rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.grading.conftest import PACKS, refs
from tutor.cli import main
from tutor.grading.engine import grade

PUZZLES = refs("chained-puzzles.yaml")


def fn(name: str, args: str, body: str) -> str:
    return f"def {name}({args}):\n    return {body}\n"


HONEST = [
    ("ones", fn("ones", "i", "torch.arange(i) * 0 + 1")),
    ("sum", fn("sum", "a", "(ones(a.shape[0]) @ a)[None]")),
    ("cumsum", fn("cumsum", "a", "a @ triu(len(a))")),
    ("compress", fn("compress", "g, v, i",
                    "(v * g) @ (1 * (g[:, None] & (cumsum(1 * g)[:, None] - 1 == torch.arange(i))))")),
    ("vstack", fn("vstack", "a, b", "torch.where(torch.arange(2)[:, None] > 0, b, a)")),
    ("bincount", fn("bincount", "a, j", "ones(len(a)) @ (1 * (a[:, None] == torch.arange(j)))")),
    ("scatter-add", fn("scatter_add", "values, link, j", "values @ eye(j)[link]")),
    ("flip", fn("flip", "a, i", "a[torch.arange(i - 1, -1, -1)]")),
]  # fmt: skip


@pytest.mark.parametrize(("drill", "answer"), HONEST, ids=[d for d, _ in HONEST])
def test_honest_answers_calling_earlier_puzzles_pass(sandbox, drill, answer):
    for seed in (1, 2, 3):
        g = grade(PUZZLES[drill], answer, seed, sandbox)
        assert g.correct, (seed, g.feedback)


ESCAPES = [
    ("sum", fn("sum", "a", "a.sum()[None]"), "not_allowed"),
    ("sum", fn("sum", "a", "torch.sum(a, 0, keepdim=True)"), "not_allowed"),
    (
        "sum",
        "ones = lambda i: torch.ones(i, dtype=torch.long)\n"
        + fn("sum", "a", "ones(a.shape[0]) @ a[:, None]"),
        "tampered",  # it rebinds `ones`, which the drill gives: refused before `torch.ones`
    ),  # fmt: skip
    ("sum", fn("sum", "a", "ones.__globals__['torch'].sum(a)[None]"), "forbidden"),
    ("sum", "def sum(a):\n    t = ones(a.shape[0])\n    return t @ a[:, None]\n", "max_lines"),
    ("ones", fn("ones", "i", "torch.ones(i, dtype=torch.long)"), "not_allowed"),
    ("flip", fn("flip", "a, i", "torch.flip(a, [0])"), "not_allowed"),
    ("flip", fn("flip", "a, i", "a.flip(0)"), "not_allowed"),
    ("cumsum", fn("cumsum", "a", "a.cumsum(0)"), "not_allowed"),
    (
        "cumsum",
        fn("cumsum", "a", "torch.tensor([int(a[:k + 1] @ ones(k + 1)) for k in range(len(a))])"),
        "forbidden_loop",
    ),  # fmt: skip
    ("bincount", fn("bincount", "a, j", "torch.bincount(a, minlength=j)"), "not_allowed"),
    ("compress", fn("compress", "g, v, i", "torch.cat([v[g], v[~g] * 0])"), "not_allowed"),
    ("flip", fn("flip", "a, i", "a[list(reversed(range(i)))]"), "not_allowed"),
    (
        "flip",
        fn("flip", "a, i", "torch.from_numpy(torch.storage.np.flip(a.numpy()).copy())"),
        "not_allowed",
    ),  # fmt: skip
    ("sum", fn("sum", "a, t=[torch][0]", "t.sum(a, 0, keepdim=True)"), "tampered"),
    (
        "cumsum",
        "import numpy\n" + fn("cumsum", "a", "torch.tensor(numpy.cumsum(a))"),
        "forbidden",
    ),  # fmt: skip
    (
        "sum",
        "def ones(i):\n    return torch.ones(i, dtype=torch.long)\n\n"
        + fn("sum", "a", "ones(a.shape[0]) @ a[:, None]"),
        "tampered",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("drill", "answer", "category"), ESCAPES)
def test_escapes_fail_under_the_drills_own_rules(sandbox, drill, answer, category):
    g = grade(PUZZLES[drill], answer, 1, sandbox)
    assert not g.correct, g.feedback
    assert category is None or g.category == category, g.feedback


def test_a_wrong_answer_built_on_an_earlier_puzzle_gets_its_feedback(sandbox):
    g = grade(PUZZLES["cumsum"], fn("cumsum", "a", "triu(len(a)) @ a"), 4, sandbox)
    assert not g.correct and "sums from each entry to the end" in g.feedback


def test_the_pack_passes_pack_check():
    result = CliRunner().invoke(main, ["pack", "check", str(PACKS / "chained-puzzles.yaml")])
    assert result.exit_code == 0, result.output
    assert "1 pack, 16 drills: ok" in result.output


def test_an_error_in_the_given_code_is_reported_where_it_is_given(tmp_path: Path):
    pack = tmp_path / "broken.yaml"
    pack.write_text(
        "pack: broken-given\ntitle: t\nchapter: 1\nsetup: |\n  X = 1\n  Y = 1 / 0\ndrills:\n"
        "  - id: p\n    kind: predict\n    prompt: What is X?\n    ask: X\n"
    )
    result = CliRunner().invoke(main, ["pack", "check", str(pack)])
    assert result.exit_code == 1
    assert ("broken.yaml:4:8: setup: ZeroDivisionError: division by zero on seed 0 (line 2 of "
            "the code the pack gives before the drill's setup)") in result.output  # fmt: skip
