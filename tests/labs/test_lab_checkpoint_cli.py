"""`tutor lab checkpoint --json`: one JSON object on stdout in the contract's shape, computed
through the real sandbox."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main


def test_checkpoint_json_contract():
    result = CliRunner().invoke(main, ["lab", "checkpoint", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["device"]["error"]["type"] == "RuntimeError"
    assert data["round_trip"]["equal"] is True
    assert data["pickled"]["class_path"] == "mymodels.TinyNet"
    assert data["pickled"]["weights_only"]["type"] == "UnpicklingError"


def test_checkpoint_text():
    result = CliRunner().invoke(main, ["lab", "checkpoint"])
    assert result.exit_code == 0
    assert "records the class path mymodels.TinyNet" in result.stdout
    assert "Can't get attribute 'TinyNet'" in result.stdout
