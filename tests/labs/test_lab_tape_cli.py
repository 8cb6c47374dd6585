"""`tutor lab tape --json`: one JSON object on stdout in the contract's shape, computed through
the real sandbox; bad input exits 1 with the reason on stderr."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_tape_json_contract_example_a():
    code, out, _ = run(
        "tape",
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\nz = (x**2 + 3*x).sum()",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["value"] == 32.0
    assert data["leaves"]["x"]["grad"] == [5.0, 7.0, 9.0]
    assert sorted(data["order"]) == [n["id"] for n in data["nodes"]]
    for node in data["nodes"]:
        assert {"id", "name", "next", "grad_in", "grad_out"} <= set(node)
    names = {n["name"] for n in data["nodes"]}
    assert names >= {"PowBackward0", "MulBackward0", "SumBackward0", "AccumulateGrad"}


def test_tape_text_and_bad_code():
    code, out, _ = run(
        "tape", "w = torch.tensor([1., -2., 0.5], requires_grad=True)\nloss = (w**2).sum()"
    )
    assert code == 0 and "loss = 5.25" in out and "w.grad = [2, -4, 1]" in out
    code, out, err = run("tape", "x = torch.ones(3, requires_grad=True)\ny = x * 2", "--json")
    assert code == 1 and "scalar" in json.loads(out)["error"]
