"""`runtime:` in a pack or drill: grading and `pack check` run the drill on that runtime (the
xla runtime here: torch_xla lazy tensors), and say plainly when it is not built."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.content.loader import load_pack, parse_pack
from tutor.content.problems import PackError

PACKS = Path(__file__).parent / "packs"
XLA_PACK = PACKS / "xla.yaml"
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(900)


def tutor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
    )


def line_of(text: str) -> int:
    return next(n for n, line in enumerate(XLA_PACK.read_text().splitlines(), 1) if text in line)


def test_drills_inherit_the_packs_runtime_and_may_override_it():
    pack = load_pack(XLA_PACK)
    assert [d.runtime for d in pack.drills] == ["xla", "xla", "default"]
    assert [d.profile for d in pack.drills] == ["compile", "compile", "default"]


def test_an_unknown_runtime_is_an_error_at_its_line_and_a_config_name_is_known(tutor_home):
    text = XLA_PACK.read_text().replace("runtime: default", "runtime: tpu")
    with pytest.raises(PackError) as err:
        parse_pack(text, "xla.yaml")
    (problem,) = err.value.problems
    assert (problem.line, problem.field) == (line_of("runtime: default"), "drills[2].runtime")
    assert "unknown runtime 'tpu'" in problem.message and "xla" in problem.message
    (tutor_home / "config.toml").write_text('[runtimes.tpu]\ncommand = ["ssh", "tpu-vm"]\n')
    pack, _ = parse_pack(text, "xla.yaml")
    assert pack.drills[2].runtime == "tpu"


def test_pack_check_runs_each_drill_on_its_runtime(sandbox, xla_sandbox):
    from tutor.grading.packcheck import check_pack
    from tutor.sandbox.pool import SandboxPool

    skipped: list[str] = []
    pool = SandboxPool(given={None: sandbox, "xla": xla_sandbox})
    assert check_pack(XLA_PACK, pool, skipped) == []
    assert skipped == []
    # on the default runtime alone (no torch_xla there), the same drills are authoring errors
    from tutor.content.loader import load_pack_located
    from tutor.grading.kinds import kind_of
    from tutor.grading.packcheck import DrillCheck, _Ref, _Reporter

    pack, locator = load_pack_located(XLA_PACK)
    rep = _Reporter(pack, locator)
    drill = pack.drills[0]
    kind_of(drill).check(DrillCheck(_Ref("x", drill), 0, sandbox, rep))
    assert rep.problems and "torch_xla" in rep.problems[0].message


def test_an_xla_drill_is_graded_on_xla_correct_and_wrong(xla_sandbox):
    from tutor.grading.engine import grade

    out = tutor("--pack", str(XLA_PACK), "drill", "run", "grading-xla/to-xla", "--seed", "3",
                "--answer", "y = x.to(torch_xla.device()) * 2", "--json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "correct"
    pack = load_pack(XLA_PACK)
    ref = type("Ref", (), {"full_id": "grading-xla/to-xla", "drill": pack.drills[1]})()
    stays = grade(ref, "y = x + x", 3, xla_sandbox)
    assert stays.status == "wrong" and "expected the XLA device" in stays.feedback
    plus = grade(ref, "y = x.to(torch_xla.device()) + 2", 3, xla_sandbox)
    assert plus.status == "wrong" and "not x doubled" in plus.feedback


def test_a_runtime_not_built_is_named_per_drill_and_fails_only_when_required(tmp_path):
    # not required: whatever the caller's environment says (CI sets TUTOR_REQUIRE_XLA=1)
    missing = {"TUTOR_RUNTIME_XLA": str(tmp_path / "no-such-runtime"), "TUTOR_REQUIRE_XLA": "0"}
    out = tutor("pack", "check", str(XLA_PACK), "--json", env=missing)
    assert out.returncode == 0, out.stdout + out.stderr
    data = json.loads(out.stdout)
    needs = "needs the xla runtime: run `make xla-runtime`"
    assert data["skipped"] == [f"grading-xla/lazy-sum {needs}", f"grading-xla/to-xla {needs}"]
    assert data["ok"] and data["problems"] == []

    out = tutor("pack", "check", str(XLA_PACK), "--json", env=missing | {"TUTOR_REQUIRE_XLA": "1"})
    assert out.returncode == 1
    problems = json.loads(out.stdout)["problems"]
    assert [p["field"] for p in problems] == ["drills[0].runtime", "drills[1].runtime"]
    assert problems[0]["line"] == line_of("id: lazy-sum") and needs in problems[0]["message"]

    out = tutor("--pack", str(XLA_PACK), "drill", "run", "grading-xla/to-xla", "--answer",
                "y = x", "--seed", "1", env=missing)  # fmt: skip
    assert out.returncode == 1
    assert f"grading-xla/to-xla {needs}" in out.stderr
