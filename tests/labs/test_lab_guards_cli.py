"""`tutor lab guards --json`: one JSON object on stdout in the contract's shape, computed through
the real sandbox; bad input exits 1 with the reason (with --json, as one {"error": ...} object on stdout)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main

CODE = (
    "def f(x, k):\n    y = x.sin() * k\n    print('step')\n    return y.cos()\n"
    "calls = [(torch.randn(4), 2), (torch.randn(4), 3)]"
)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_guards_json_contract():
    code, out, _ = run("guards", CODE, "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"graphs", "graph_breaks", "guards", "recompiles", "ops"}
    assert data["graphs"] == 2
    assert data["graph_breaks"] == [{"reason": "Failed to trace builtin operator", "line": 3}]
    assert data["recompiles"][0] == {"call": 1, "reason": "k == 2"}
    assert data["ops"] == [["sin", "mul"], ["cos"]]
    assert "EQUALS_MATCH: L['k'] == 2" in data["guards"]


def test_guards_text_and_bad_code():
    code, out, _ = run("guards", "def f(x):\n    return x.cos()\ncalls = [torch.randn(3)]")
    assert code == 0 and "1 graph, 0 breaks" in out and "recompiles: none" in out
    code, out, _ = run("guards", "def f(x): return x", "--json")
    assert code == 1 and "define `calls`" in json.loads(out)["error"]


def test_guards_with_inductor_compiles_through_the_compile_profile():
    """The inductor backend really generates and builds C++ in the sandbox (the `compile`
    limits profile), and counts graphs, breaks and recompiles as the eager backend does."""
    code, out, _ = run("guards", CODE, "--backend", "inductor", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["graphs"] == 2 and len(data["graph_breaks"]) == 1
    assert data["recompiles"][0] == {"call": 1, "reason": "k == 2"}
    assert data["ops"] == [["sin", "mul"], ["cos"]]
