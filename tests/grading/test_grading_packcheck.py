"""`tutor pack check`, sandbox stage: references pass, starters and wrong answers fail,
predict drills' setup/ask run; every problem at file:line with its field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.content.problems import errors
from tutor.content.sources import builtin_pack_dir, expand
from tutor.grading.packcheck import check_pack

PACKS = Path(__file__).parent / "packs"
ROOT = Path(__file__).resolve().parents[2]


def line_of(file: Path, text: str) -> int:
    for n, line in enumerate(file.read_text().splitlines(), 1):
        if text in line:
            return n
    raise AssertionError(text)


def test_a_good_pack_of_every_kind_passes(sandbox):
    assert check_pack(PACKS / "basics.yaml", sandbox) == []


def test_broken_pack_problems_name_file_line_field_and_why(sandbox):
    file = PACKS / "broken.yaml"
    found = check_pack(file, sandbox)
    warned = {p.field for p in found if p.severity == "warning"}
    assert warned == {"drills[2].check", "drills[4].check"}  # compared with the reference only
    problems = {p.field: p for p in found if p.severity == "error"}
    assert set(problems) == {
        "drills[0].ask",
        "drills[1].setup",
        "drills[2].reference",
        "drills[3].wrong[0]",
        "drills[4].starter",
        "drills[4].check",  # an answer that returns its input passes: refused, not a warning
        "drills[5].ask",
    }
    assert "a forged answer" in problems["drills[4].check"].message
    ask = problems["drills[0].ask"]
    assert ask.line == line_of(file, "ask: y.shape") and "NameError" in ask.message
    setup = problems["drills[1].setup"]
    assert setup.line == line_of(file, "z = torch.zeros(n)") and "'n'" in setup.message
    ref = problems["drills[2].reference"]  # a reference that fails
    assert ref.line == line_of(file, "return x.doubled()") and "AttributeError" in ref.message
    wrong = problems["drills[3].wrong[0]"]  # a wrong answer that passes
    assert "passes the check" in wrong.message and "seed" in wrong.message
    assert wrong.line == line_of(file, "      - |")
    assert "already passes" in problems["drills[4].starter"].message
    assert "returns a Linear, which a learner cannot type" in problems["drills[5].ask"].message
    assert all(
        str(p).startswith(f"{p.file}:{p.line}:{p.col}: {p.field}: ") for p in problems.values()
    )


def test_wrong_answer_with_a_syntax_error_is_reported(sandbox, tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text(
        "pack: p\ntitle: P\nchapter: 1\ndrills:\n"
        "  - id: d\n    kind: code\n    prompt: p\n"
        "    starter: |\n      def f(x):\n          ...\n"
        "    reference: |\n      def f(x):\n          return x + 1\n"
        "    check:\n      call: f\n      args:\n        x: {tensor: [2]}\n"
        "    wrong:\n      - |\n        def f(x)\n            return x\n"
    )
    (problem,) = check_pack(pack, sandbox)
    assert problem.field == "drills[0].wrong[0]" and "cannot be read" in problem.message
    assert problem.line == 19


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", "pack", "check", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=1200, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_cli_reports_problems_and_exits_1():
    out = run_cli(str(PACKS / "broken.yaml"), "--json")
    assert out.returncode == 1
    data = json.loads(out.stdout)
    fields = {p["field"] for p in data["problems"]}
    assert "drills[3].wrong[0]" in fields and "drills[2].reference" in fields


def test_cli_no_run_is_schema_only():
    out = run_cli(str(PACKS / "broken.yaml"), "--no-run")
    assert out.returncode == 0, out.stderr


def test_cli_builtin_reads_every_shipped_pack():
    out = run_cli("--builtin", "--no-run")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"{len(BUILTIN)} packs, "), out.stdout


BUILTIN = expand(builtin_pack_dir())


@pytest.fixture(scope="module")
def builtin_pool(sandbox, request):
    """The pool `tutor pack check --builtin` would open: the session's sandbox for the default
    runtime and the shared xla sandbox where that runtime is built (else the pool makes none,
    and a drill that needs it is skipped, or reported where it is required)."""
    from tutor.sandbox.pool import SandboxPool
    from tutor.sandbox.runtimes import built_python

    given = {None: sandbox}
    if built_python("xla") is not None:
        given["xla"] = request.getfixturevalue("xla_sandbox")
    with SandboxPool(given=given) as pool:
        yield pool


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", [pytest.param(p, id=p.name, marks=pytest.mark.xdist_group(p.name)) for p in BUILTIN]
)
def test_builtin_pack_passes(path, builtin_pool):
    """What `tutor pack check --builtin` runs for each shipped pack (the schema stage, every
    drill in the sandbox, the regression seeds), one pack a test (each its own xdist group, so
    the packs spread over the workers)."""
    import click

    from tutor.commands.pack_run import run_check

    sweep = {"trials": None, "seed": 0, "budget": None}
    packs, problems, _, _ = run_check(
        click.Context(click.Command("check")), [path], no_run=False, sweep=sweep, pool=builtin_pool
    )
    assert len(packs) == 1
    assert errors(problems) == [], "\n".join(map(str, problems))


def test_pack_for_other_torch_versions_is_skipped_with_a_reason(sandbox, tmp_path):
    from tutor.content.loader import load_pack
    from tutor.grading.packcheck import check_packs

    file = tmp_path / "old.yaml"
    file.write_text(
        'pack: old\ntitle: Old\nchapter: 1\ntorch: "<2.0"\ndrills:\n'
        "  - id: d\n    kind: predict\n    prompt: p\n    ask: y.shape\n"
    )
    skipped: list[str] = []
    assert check_packs([load_pack(file)], sandbox, skipped) == []
    assert skipped and "torch <2.0" in skipped[0]


def test_the_scaffolded_pack_of_every_kind_passes_the_full_check(sandbox, tmp_path):
    from tutor.content.scaffold import scaffold

    file = tmp_path / "demo.yaml"
    file.write_text(scaffold("demo", str(file)))
    assert check_pack(file, sandbox) == []


TYPO_PACK = """\
pack: typos
title: Typos
chapter: 1
drills:
  - id: typo
    kind: predict
    prompt: "What is `torch.ones(2).shap`?"
    ask: torch.ones(2).shap
  - id: on-purpose
    kind: predict
    prompt: "What does `torch.ones(2).shap` do?"
    ask: torch.ones(2).shap
    explain: A tensor has no attribute `shap`; torch raises AttributeError.
"""


def test_an_ask_raising_attribute_error_is_flagged_unless_it_is_the_point(sandbox, tmp_path):
    file = tmp_path / "typos.yaml"
    file.write_text(TYPO_PACK)
    problems = check_pack(file, sandbox)
    assert [p.field for p in problems] == ["drills[0].ask"]
    assert "AttributeError" in problems[0].message and "typo" in problems[0].message


def _code_pack(tmp_path: Path, reference: str, wrong: str = "") -> Path:
    pack = tmp_path / "code.yaml"
    indent = lambda text: "".join(f"      {line}\n" for line in text.splitlines())  # noqa: E731
    body = (
        "pack: c\ntitle: C\nchapter: 1\ndrills:\n"
        "  - id: double\n    kind: code\n    prompt: Return twice x.\n"
        "    starter: |\n      def double(x):\n          ...\n"
        f"    reference: |\n{indent(reference)}"
        "    check:\n      call: double\n      args:\n        x: {tensor: [3]}\n"
    )
    if wrong:
        body += f"    wrong:\n      - |\n{indent(wrong).replace('      ', '        ')}"
    pack.write_text(body)
    return pack


def test_a_check_by_comparison_alone_without_wrong_answers_is_a_warning(sandbox, tmp_path):
    pack = _code_pack(tmp_path, "def double(x):\n    return x * 2\n")
    (problem,) = check_pack(pack, sandbox)
    assert problem.severity == "warning" and problem.field == "drills[0].check"
    assert "no `wrong` answers" in problem.message and ": warning: " in str(problem)
    pack = _code_pack(
        tmp_path, "def double(x):\n    return x * 2\n", "def double(x):\n    return x + 2\n"
    )
    assert check_pack(pack, sandbox) == []
    result = run_cli(str(_code_pack(tmp_path, "def double(x):\n    return x * 2\n")))
    assert result.returncode == 0 and "ok (1 warning)" in result.stdout, result


def test_a_reference_that_loops_is_stopped_at_the_drill_time_limit(sandbox, tmp_path):
    looping = "def double(x):\n    while True:\n        pass\n"
    pack = _code_pack(tmp_path, looping, "def double(x):\n    return x + 2\n")
    (problem,) = check_pack(pack, sandbox)
    assert problem.field == "drills[0].reference" and problem.severity == "error"
    assert "did not finish within 10 s, the drill's time limit, on seed 0" in problem.message
