"""`tutor lab ranks --json`: one JSON object on stdout in the contract's shape, from real gloo
ranks in the real sandbox. Never asserts on a time."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_ranks_json_contract():
    code, out, _ = run(
        "ranks", "--world", "4", "--op", "all_reduce", "--values", "1,2,3,4", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert {"world", "op", "before", "after", "timeline"} <= set(data)
    assert data["world"] == 4 and data["op"] == "all_reduce"
    assert data["before"] == [[1.0], [2.0], [3.0], [4.0]] and data["after"] == [[10.0]] * 4
    assert {"rank", "event", "start_ms", "end_ms"} <= set(data["timeline"][0])
    assert {e["event"] for e in data["timeline"]} >= {"join", "all_reduce"}


def test_ranks_text_and_refusals():
    code, out, _ = run("ranks", "--world", "2", "--op", "broadcast", "--values", "5,7")
    assert code == 0 and "rank 1: [7.0] -> [5.0]" in out and "timeline" in out
    code, _, err = run("ranks", "--world", "2", "--values", "1,2,3")
    assert code == 2 and "one value per rank" in err  # the row's check, before any rank starts
    code, out, err = run("ranks", "--world", "9")
    assert code == 2 and out == ""
    code, out, err = run("ranks", "--values", "1,x")
    assert code == 2 and "numbers separated by commas" in err
