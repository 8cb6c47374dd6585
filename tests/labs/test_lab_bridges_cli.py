"""`tutor lab bridges --json` through the real sandbox on the xla runtime its row names (found
through settings: `TUTOR_RUNTIME_XLA` too): the contract's shape, and the export that drops a
full sum; where that runtime is not built, one error saying how to build it. The xla test skips
where `make xla-runtime` was not run."""

from __future__ import annotations

import json

from click.testing import CliRunner

from labs.harness import DATA
from tutor.cli import main
from tutor.commands.labs.bridges import render
from tutor.probes.data_bridges import SUM_CODE, Bridges


def test_bridges_json_contract(xla_runtime):
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


def test_where_the_xla_runtime_is_not_built_the_lab_says_how_to_build_it(monkeypatch, tmp_path):
    monkeypatch.setenv("TUTOR_RUNTIME_XLA", str(tmp_path / "no-runtime-here"))
    result = CliRunner().invoke(main, ["lab", "bridges", "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "error": "tutor lab bridges needs the xla runtime: run `make xla-runtime`"
    }


def test_text_face_compares_before_it_shows_ir():
    data = Bridges.model_validate_json((DATA / "bridges_sum.json").read_text())
    text = render(data)
    assert "torch_xla StableHLO export DIFFERS from eager when run" in text
    assert text.index("DIFFERS") < text.index("lazy IR:") < text.index("StableHLO (export):")
