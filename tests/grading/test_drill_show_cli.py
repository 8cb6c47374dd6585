"""`tutor drill show`, `drill list` piped, and `--json` errors: the command line used headless."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PACK = Path(__file__).parent / "packs" / "basics.yaml"


def tutor(*args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "tutor", "--pack", str(PACK), *args]
    return subprocess.run(
        cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


def test_show_gives_the_variant_drill_run_grades():
    out = tutor("drill", "show", "grading-basics/permute-strides", "--seed", "17", "--json")
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["drill"] == "grading-basics/permute-strides" and shown["seed"] == 17
    assert shown["prompt"] and "explain" not in shown and shown["setup"].startswith("x = torch")
    run = tutor("drill", "run", "grading-basics/permute-strides", "--seed", "17", "--answer", "1",
                "--json")  # fmt: skip
    assert json.loads(run.stdout)["params"] == shown["params"]
    plain = tutor("drill", "show", "grading-basics/permute-strides", "--seed", "17")
    assert shown["prompt"].strip().splitlines()[0] in plain.stdout
    assert "--seed 17" in plain.stdout


def test_json_errors_are_one_json_object_with_a_non_zero_exit():
    for args in (
        ("drill", "show", "grading-basics/permute-strid", "--json"),
        ("drill", "run", "grading-basics/permute-strid", "--answer", "1", "--json"),
        ("drill", "run", "grading-basics/permute-strides", "--json"),  # no --answer
    ):
        out = tutor(*args)
        assert out.returncode != 0, args
        assert set(json.loads(out.stdout)) == {"error"}, args
    typo = json.loads(tutor("drill", "show", "grading-basics/permute-strid", "--json").stdout)
    assert "did you mean grading-basics/permute-strides?" in typo["error"]


def test_plain_errors_stay_plain():
    out = tutor("drill", "show", "grading-basics/permute-strid")
    assert out.returncode == 1 and out.stdout == "" and "did you mean" in out.stderr


def test_drill_list_piped_prints_whole_ids():
    out = tutor("drill", "list")
    assert out.returncode == 0, out.stderr
    rows = [line.split("\t") for line in out.stdout.splitlines()]
    assert all(len(row) == 4 for row in rows)
    ids = {row[0] for row in rows}
    assert "grading-basics/permute-strides" in ids
    assert max(map(len, ids)) > 30  # nothing cut to a column width
