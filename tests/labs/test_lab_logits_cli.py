"""`tutor lab logits ... --json` through the real sandbox: gradient = p - y, softmax-first floor."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from tutor.cli import main

pytestmark = pytest.mark.slow  # every invocation starts a fresh sandbox


def test_logits_json():
    runner = CliRunner()
    result = runner.invoke(main, ["lab", "logits", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["logits"] == [2.0, 1.0, 0.1] and data["target"] == 0
    assert not data["softmax_first"] and data["grad_matches_p_minus_y"]
    assert data["grad"] == pytest.approx(data["p_minus_y"], abs=1e-6)
    assert data["loss"] == pytest.approx(-math.log(data["probs"][0]), rel=1e-6)

    result = runner.invoke(
        main,
        ["lab", "logits", "--logits", "0, 0, 0, 0", "--target", "3", "--softmax-first", "--json"],
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["softmax_first"] and data["floor"] == pytest.approx(
        math.log(1 + 3 / math.e), rel=1e-5
    )
    assert data["grad_norm"] < data["correct"]["grad_norm"]

    result = runner.invoke(main, ["lab", "logits", "--logits", "1, 2", "--target", "4"])
    # refused by the row's check, before any sandbox starts: a usage error
    assert result.exit_code == 2 and "the target must be a class between 0 and 1" in result.stderr
    result = runner.invoke(main, ["lab", "logits", "--logits", "a b"])
    assert result.exit_code == 2 and "not a list of numbers" in result.stderr
