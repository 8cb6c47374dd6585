"""`tutor drill run ID --answer ... --seed N --json`: the headless face of the engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner, Result

from tutor.cli import main

PACK = Path(__file__).parent / "packs" / "basics.yaml"
KEYS = {"drill", "seed", "params", "status", "correct", "expected", "feedback"}


def drill_run(*args: str) -> Result:
    """`tutor --pack basics.yaml drill run ARGS`, in this process (it starts its own sandbox)."""
    return CliRunner().invoke(main, ["--pack", str(PACK), "drill", "run", *args])


def test_predict_json_contract():
    """The README's command in a real `tutor` process: its exit status and its JSON."""
    cmd = [sys.executable, "-m", "tutor", "--pack", str(PACK), "drill", "run",
           "grading-basics/permute-shape", "--answer", "(4, 2, 3)", "--seed", "3", "--json"]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= KEYS
    assert data["drill"] == "grading-basics/permute-shape" and data["seed"] == 3
    assert data["status"] == "correct" and data["correct"] is True


def test_seed_replays_params_and_a_drawn_seed_is_in_the_json():
    args = ("grading-basics/permute-strides", "--answer", "(1, 2, 3)", "--json")
    a = json.loads(drill_run(*args, "--seed", "17").stdout)
    b = json.loads(drill_run(*args, "--seed", "17").stdout)
    assert a["params"] == b["params"] and a["expected"] == b["expected"]
    out = drill_run(*args)
    seed = json.loads(out.stdout)["seed"]
    replay = json.loads(drill_run(*args, "--seed", str(seed)).stdout)
    assert replay["params"] == json.loads(out.stdout)["params"]


def test_order_answer_from_a_file_and_wrong_verdict_exits_0(tmp_path):
    answer = tmp_path / "a.txt"
    answer.write_text("out = model(x)\noptimizer.zero_grad()\nloss = criterion(out, y)\n"
                      "loss.backward()\noptimizer.step()\n")  # fmt: skip
    out = drill_run("grading-basics/five-lines", "--answer-file", str(answer), "--json")
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    assert data["status"] == "wrong" and "Line 1" in data["feedback"]


def test_choice_and_code():
    out = drill_run("grading-basics/no-grad", "--answer", "Sets every .grad to zero.", "--json")
    assert json.loads(out.stdout)["feedback"] == "That is optimizer.zero_grad()."
    code = "def outer(a, b):\n    return a[:, None] * b\n"
    out = drill_run("grading-basics/outer", "--answer", code, "--seed", "1", "--json")
    assert json.loads(out.stdout)["correct"] is True


def test_unknown_drill_is_an_error():
    out = drill_run("grading-basics/outr", "--answer", "1", "--json")
    assert out.exit_code != 0
    assert "did you mean grading-basics/outer" in json.loads(out.stdout)["error"]
