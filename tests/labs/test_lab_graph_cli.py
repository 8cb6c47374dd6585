"""`tutor lab graph --json`: one JSON object on stdout in the contract's shape, computed through
the real sandbox; bad input exits 1 with the reason (with --json, as one {"error": ...} object on stdout)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main

MLP = "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\nargs = (torch.randn(3, 4),)"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_graph_json_contract():
    code, out, _ = run("graph", MLP, "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"ops", "decomposed_ops", "signature", "nodes"}
    assert data["ops"] == {"aten.linear.default": 2, "aten.relu.default": 1}
    assert data["decomposed_ops"]["aten.permute.default"] == 2
    assert data["decomposed_ops"]["aten.addmm.default"] == 2
    assert set(data["signature"]) == {"parameters", "buffers", "user_inputs", "user_outputs"}
    assert data["signature"]["parameters"] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert all(set(n) == {"name", "op", "target"} for n in data["nodes"])
    assert data["nodes"][5] == {
        "name": "linear",
        "op": "call_function",
        "target": "aten.linear.default",
    }


def test_graph_text_and_bad_code():
    code, out, _ = run("graph", "model = nn.Linear(3, 2, bias=False)\nargs = (torch.randn(5, 3),)")
    assert code == 0
    assert "p_weight" in out and "[parameter]" in out
    assert "aten.mm.default" in out and "0 -> 1" in out
    code, out, _ = run("graph", "model = nn.Linear(2, 2)", "--json")
    assert code == 1 and "define `args`" in json.loads(out)["error"]
