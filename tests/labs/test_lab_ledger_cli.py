"""`tutor lab ledger ... --json` through the real sandbox: contract shape and COURSE numbers."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tutor.cli import main

pytestmark = pytest.mark.slow  # every invocation starts a fresh sandbox

MLP = (
    "nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),"
    " nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))"
)


def test_ledger_json_contract_and_numbers():
    result = CliRunner().invoke(main, ["lab", "ledger", MLP, "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"layers", "total", "bytes", "buffers"} <= data.keys()
    assert data["total"] == 235_146
    assert data["bytes"] == {
        "float32": 940_584,
        "float16": 470_292,
        "bfloat16": 470_292,
        "int8": 235_146,
    }
    assert data["kib"]["float32"] == 918.5 and data["kib"]["float16"] == 459.3
    assert data["kib"]["int8"] == 229.6
    assert data["adam_bytes"] == 1_881_168 and data["buffers"] == 0
    assert data["input_bytes"] == 64 * 784 * 4
    linears = [layer for layer in data["layers"] if layer["kind"] == "Linear"]
    assert [layer["params"] for layer in linears] == [200_960, 32_896, 1_290]


def test_ledger_batch_shape_and_errors():
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "lab",
            "ledger",
            "nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8))",
            "--batch",
            "2",
            "--input-shape",
            "3,32,32",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["total"] == 3 * 8 * 9 + 8 + 16
    assert data["buffers"] == 8 + 8 + 1
    assert data["layers"][1]["output_shape"] == [2, 8, 30, 30]
    result = runner.invoke(main, ["lab", "ledger", "nn.Linear(4,", "--json"])
    assert result.exit_code == 1 and "syntax error" in json.loads(result.stdout)["error"]
    result = runner.invoke(main, ["lab", "ledger", "nn.Linear(4, 3)", "--input-shape", "x"])
    assert result.exit_code == 2 and "not a shape" in result.stderr
