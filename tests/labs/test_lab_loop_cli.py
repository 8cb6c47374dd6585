"""`tutor lab loop|ledger|logits --json` through the real sandbox: the contract shapes and the
COURSE numbers, and plain errors for bad input (exit 1; with --json one {"error": ...} object)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tutor.cli import main

pytestmark = pytest.mark.slow  # every invocation starts a fresh sandbox


def lab(*args: str) -> tuple[int, str, str]:
    """Run `tutor lab ARGS`; (exit code, stdout, stderr)."""
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def lab_json(*args: str) -> dict:
    code, out, err = lab(*args, "--json")
    assert code == 0, err
    return json.loads(out)  # exactly one JSON object


def test_loop_line_healthy():
    data = lab_json("loop")
    assert {"losses", "w", "b", "diagnosis"} <= data.keys()
    assert len(data["losses"]) == 200 and data["losses"][0] == 17.875
    assert data["w"] == pytest.approx(3, abs=1e-5) and data["b"] == pytest.approx(-1, abs=1e-5)
    assert data["losses"][-1] < 1e-9
    assert data["diagnosis"]["level"] == "ok"
    assert len(data["params"]) == len(data["grads"]) == 200
    assert data["grads"][0] == pytest.approx({"w": -11.25, "b": 2.0})


def test_loop_bugs():
    data = lab_json("loop", "--bug", "no_zero_grad", "--steps", "3")
    assert [round(x, 3) for x in data["losses"]] == [17.875, 7.232, 0.198]
    assert "accumulate" in data["diagnosis"]["cause"]
    data = lab_json("loop", "--lr", "1.5", "--steps", "40")
    assert None in data["losses"] and data["diagnosis"]["level"] == "bad"
    data = lab_json("loop", "--problem", "classify", "--bug", "softmax_into_ce", "--steps", "50")
    assert len(data["accuracy"]) == 50 and "w" not in data
    assert "softmax" in data["diagnosis"]["cause"]


def test_loop_bad_input():
    code, out, _ = lab("loop", "--bug", "no_eval", "--json")
    assert code == 1 and "needs a classifier" in json.loads(out)["error"]
    code, _, err = lab("loop", "--bug", "typo")
    assert code == 2 and "typo" in err


def test_loop_readable_text():
    code, out, _ = lab("loop", "--steps", "5")
    assert code == 0 and "optimizer.zero_grad()" in out and "[1] 17.875" in out
