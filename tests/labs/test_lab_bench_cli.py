"""`tutor lab bench --json`: one JSON object on stdout in the contract's shape, computed through
the real sandbox. Never asserts on a timing value."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tutor.cli import main
from tutor.content.lesson_text import parse_lesson_text
from tutor.paths import PROJECT_ROOT
from tutor.probes.data_bench import limits_for

CODE = "a = torch.randn(32, 32)\n\ndef fn():\n    return a @ a\n"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


def test_bench_json_contract():
    code, out, _ = run("bench", CODE, "--json")
    assert code == 0
    data = json.loads(out)
    assert {"naive_ms", "first_call_ms", "timer", "profile"} <= set(data)
    assert {"median_ms", "iqr_ms", "runs", "threads"} <= set(data["timer"])
    assert data["timer"]["threads"] == 1 and data["timer"]["runs"] >= 1
    assert all({"op", "self_ms", "calls"} <= set(row) for row in data["profile"])
    assert "aten::mm" in {row["op"] for row in data["profile"]}


def test_bench_text_and_refusals():
    code, out, _ = run("bench", CODE, "--threads", "2")
    assert code == 0 and "Timer.blocked_autorange" in out and "2 threads pinned" in out
    code, _, err = run("bench", "x = 1")
    assert code == 1 and "must define fn" in err
    code, out, err = run("bench", CODE, "--threads", "0")
    assert code == 2 and out == ""


def test_the_lesson_times_eager_against_inductor_under_the_compile_profile():
    """Chapter 6 sends the learner to the bench lab twice, eager then compiled; only the compiled
    code gets the `compile` limits (inductor writes and builds C++)."""
    text = (PROJECT_ROOT / "lessons" / "06-guarded-capture.md").read_text()
    codes = [
        link.preset["code"]
        for link in parse_lesson_text(text).links
        if link.name == "bench" and link.preset
    ]
    assert len(codes) == 2
    assert [limits_for(code) for code in codes] == [{}, {"profile": "compile"}]
    assert codes[1].replace("torch.compile(", "", 1)[:-1] == codes[0]
