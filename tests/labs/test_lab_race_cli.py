"""`tutor lab race --json`: one JSON object on stdout in the contract's shape, computed through
the real sandbox. Never asserts on a timing value."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_race_json_contract():
    code, out, _ = run("race", "--n", "16", "--op", "normalize", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["n"] == 16 and data["op"] == "normalize" and data["match"] is True
    for side in ("loop", "batched"):
        assert {"median_s", "iqr_s", "python_calls", "aten_ops", "code"} <= set(data[side])
    assert data["loop"]["python_calls"] > data["batched"]["python_calls"]


def test_race_refuses_bad_n():
    code, out, err = run("race", "--n", "0", "--json")
    assert code == 2 and "0" in json.loads(out)["error"]
