"""`tutor drill run --json` as scripts read it (one JSON line, nothing on stderr, no control
characters), and `tutor drill run --batch FILE`: many answers on one sandbox, one JSON line per
answer, a bad line answered with an error and the rest graded. Real `tutor` processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(600)

PACK = Path(__file__).parent / "packs" / "basics.yaml"
OUTER = "def outer(a, b):\n    return a[:, None] * b\n"
#: a learner's exception whose text tries to drive the terminal: a title change, a screen
#: clear, an 8-bit CSI, a bell and a NUL
NASTY = (
    "def outer(a, b):\n    raise ValueError('\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m red \\x00 flag')\n"
)
CONTROL = {chr(c) for c in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]}


def tutor(*args: str, stdin: str | None = None, merged: bool = False, cwd: Path | None = None):
    return subprocess.run(
        [sys.executable, "-m", "tutor", "--pack", str(PACK), "drill", "run", *args],
        input=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merged else subprocess.PIPE,
        text=True,
        timeout=500,
        cwd=cwd,
    )


def strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return []


def test_json_is_one_line_alone_and_free_of_control_characters():
    """No seed given: the drawn seed is in the JSON, not on stderr, so `2>&1` still reads as one
    JSON line ending in a newline; the learner's exception text reaches it without controls."""
    done = tutor("grading-basics/outer", "--answer", NASTY, "--json", merged=True)
    assert done.returncode == 0
    assert done.stdout.endswith("}\n") and done.stdout.count("\n") == 1, done.stdout
    data = json.loads(done.stdout)
    assert isinstance(data["seed"], int)
    assert data["status"] == "wrong" and "red" in data["feedback"] and "flag" in data["feedback"]
    assert not any(CONTROL & set(s) for s in strings(data)), data["feedback"]


def test_the_human_verdict_says_the_seed_and_stderr_stays_empty():
    done = tutor("grading-basics/no-grad", "--answer", "Sets every .grad to zero.")
    assert done.returncode == 0
    first = done.stdout.splitlines()[0]
    assert first.startswith("grading-basics/no-grad (seed ") and first.endswith("): wrong")
    assert done.stderr == ""


def test_batch_grades_every_kind_and_answers_a_bad_line_with_an_error(tmp_path):
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / "outer.py").write_text(OUTER)
    lines = [
        {"id": "grading-basics/permute-strides", "seed": 17, "answer": "(1, 2, 3)"},
        {"id": "grading-basics/outer", "seed": 1, "answer_file": "answers/outer.py"},
        "not json {",
        {"id": "grading-basics/outr", "answer": "1"},
        {"id": "grading-basics/no-grad", "seed": 4, "answer": "Sets every .grad to zero."},
        "",
        {"id": "grading-basics/outer", "seed": 2, "answer": NASTY},
        {"id": "grading-basics/outer", "seed": "2", "answer": OUTER},
        {"id": "grading-basics/outer", "anwser": OUTER},
        {"id": "grading-basics/outer", "seed": 2**70, "answer": OUTER},
        {"id": "grading-basics/outer", "answer_file": "answers/none.py"},
        {
            "id": "grading-basics/five-lines",
            "answer": "optimizer.zero_grad()\nout = model(x)\n"
            "loss = criterion(out, y)\nloss.backward()\noptimizer.step()",
        },  # fmt: skip
    ]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    done = tutor("--batch", str(batch))  # run from elsewhere: answer files are by the batch
    assert done.returncode == 1, done.stderr  # some lines were refused
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]  # blank line: none
    by_line = {o["line"]: o for o in out}
    assert by_line[1]["status"] in ("correct", "wrong") and by_line[1]["seed"] == 17
    assert by_line[2]["correct"] is True
    assert by_line[3] == {"line": 3, "error": "not JSON: Expecting value (column 1)"}
    assert "did you mean grading-basics/outer" in by_line[4]["error"]
    assert by_line[4]["drill"] == "grading-basics/outr"
    assert by_line[5]["feedback"] == "That is optimizer.zero_grad()."
    assert by_line[7]["status"] == "wrong" and not any(CONTROL & set(s) for s in strings(out))
    assert by_line[8]["error"] == '"seed" must be a whole number from 0 to 4294967295, not "2"'
    assert by_line[9]["error"].startswith("unknown key 'anwser' (known: id, seed, answer")
    assert by_line[10]["error"].endswith(f"not {2**70}")  # torch's seeds would overflow
    assert "cannot read the answer file" in by_line[11]["error"]
    assert by_line[11]["drill"] == "grading-basics/outer"
    assert by_line[12]["correct"] is True
    # each verdict is drill run --json's object, plus its line
    single = json.loads(tutor("grading-basics/permute-strides", "--answer", "(1, 2, 3)",
                              "--seed", "17", "--json").stdout)  # fmt: skip
    assert by_line[1] == {"line": 1, **single}


def test_batch_reads_standard_input_and_exits_0_when_every_line_is_graded(tmp_path):
    (tmp_path / "outer.py").write_text(OUTER)
    stdin = "\n".join(
        json.dumps(line)
        for line in [
            {"id": "grading-basics/permute-shape", "seed": 3, "answer": "(4, 2, 3)"},
            {"id": "grading-basics/outer", "answer_file": "outer.py"},  # by the working folder
            {"id": "grading-basics/mean", "seed": 1, "answer": "1.6667"},
        ]
    )
    done = tutor("--batch", "-", stdin=stdin, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2, 3]
    assert all(o["correct"] for o in out), out
    assert isinstance(out[1]["seed"], int)  # drawn, and reported


def test_a_seed_out_of_range_is_a_usage_error():
    done = tutor("grading-basics/outer", "--answer", OUTER, "--seed", str(2**63))
    assert done.returncode == 2 and "is not in the range 0<=x<=4294967295" in done.stderr


def test_batch_takes_nothing_else():
    done = tutor("grading-basics/outer", "--batch", "-", stdin="")
    assert done.returncode == 2
    assert "give no DRILL_ID, --answer, --answer-file or --seed with it" in done.stderr
    done = tutor()
    assert done.returncode == 2 and "give a DRILL_ID to grade (or --batch FILE)" in done.stderr
