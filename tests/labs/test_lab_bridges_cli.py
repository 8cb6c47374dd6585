"""`tutor lab bridges --json` through the real sandbox on the xla runtime: the contract's shape,
and the export that drops a full sum. Skips where `make xla-runtime` was not run."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from labs.harness import DATA
from tutor.cli import main
from tutor.commands.labs.bridges import XLA_PYTHON, render
from tutor.probes.data_bridges import SUM_CODE, Bridges


@pytest.mark.skipif(not XLA_PYTHON.exists(), reason="no xla runtime (make xla-runtime)")
def test_bridges_json_contract():
    result = CliRunner().invoke(main, ["lab", "bridges", SUM_CODE, "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"eager", "xla", "torchax"}
    assert set(data["eager"]) == {"output"}
    assert set(data["xla"]) == {
        "output",
        "matches_eager",
        "compiles",
        "ir",
        "stablehlo",
        "export_matches_eager",
    }
    assert set(data["torchax"]) == {"output", "matches_eager", "stablehlo"}
    assert data["eager"]["output"] == 15.0 and data["xla"]["export_matches_eager"] is False


def test_text_face_compares_before_it_shows_ir():
    data = Bridges.model_validate_json((DATA / "bridges_sum.json").read_text())
    text = render(data)
    assert "torch_xla StableHLO export DIFFERS from eager when run" in text
    assert text.index("DIFFERS") < text.index("lazy IR:") < text.index("StableHLO (export):")
