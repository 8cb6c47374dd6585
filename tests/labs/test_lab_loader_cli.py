"""`tutor lab loader --json`: one JSON object on stdout in the contract's shape, from a real
DataLoader (worker processes included) in the real sandbox. Never asserts on a time."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main

KEYS = {"samples", "batch", "drop_last", "batches", "full", "last", "steps_per_epoch", "timeline"}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_loader_json_contract_with_workers():
    code, out, _ = run("loader", "--samples", "10", "--batch", "3", "--workers", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == KEYS
    assert (data["samples"], data["batch"], data["drop_last"]) == (10, 3, False)
    assert (data["batches"], data["full"], data["last"], data["steps_per_epoch"]) == (4, 3, 1, 4)
    assert [e["batch"] for e in data["timeline"]] == [0, 1, 2, 3]
    assert all(set(e) == {"batch", "worker", "start_ms", "end_ms"} for e in data["timeline"])
    assert {e["worker"] for e in data["timeline"]} <= {0, 1}
    assert all(e["start_ms"] <= e["end_ms"] for e in data["timeline"])


def test_loader_drop_last_text_and_refusals():
    code, out, _ = run("loader", "--samples", "10", "--batch", "3", "--drop-last", "--json")
    data = json.loads(out)
    assert code == 0 and (data["batches"], data["last"]) == (3, 3)
    assert {e["worker"] for e in data["timeline"]} == {-1}
    code, out, _ = run("loader", "--samples", "7", "--batch", "2")
    assert code == 0 and "4 batches: 3 full, last holds 1" in out and "main" in out
    for bad in (["--samples", "0"], ["--samples", "100001"], ["--batch", "0"], ["--workers", "5"]):
        code, out, err = run("loader", *bad)
        assert code == 2 and out == "" and "Invalid value" in err
