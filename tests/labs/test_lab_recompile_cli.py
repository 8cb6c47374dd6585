"""`tutor lab recompile --json` through the real sandbox on the xla runtime: the data's shape and
torch_xla's counters; bad input refused before any runtime starts; the text face."""

from __future__ import annotations

import json

from click.testing import CliRunner

from labs.harness import recorded
from tutor.cli import main
from tutor.commands.labs.recompile import render
from tutor.probes.data_recompile import Recompile


def lab(*args: str):
    return CliRunner().invoke(main, ["lab", "recompile", *args])


def test_recompile_json_counts_a_compile_per_new_shape(xla_sandbox):
    result = lab("--sizes", "3,5,7,5", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"pad_to", "steps", "distinct_shapes"}
    assert set(data["steps"][0]) == {
        "step",
        "batch",
        "shape",
        "uncached_compiles",
        "cached_compiles",
        "loss",
    }
    assert [s["uncached_compiles"] for s in data["steps"]] == [1, 2, 3, 3]
    assert [s["cached_compiles"] for s in data["steps"]] == [0, 0, 0, 1]
    assert data["pad_to"] is None and data["distinct_shapes"] == 3


def test_recompile_json_padded_compiles_once(xla_sandbox):
    result = lab("--sizes", "3,5,7,5", "--pad-to", "8", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [s["uncached_compiles"] for s in data["steps"]] == [1, 1, 1, 1]
    assert [s["shape"] for s in data["steps"]] == [[8, 8]] * 4


def test_bad_sizes_are_one_error_object():
    for args, words in (
        (["--sizes", "3,x"], "'x' is not a batch size"),
        (["--sizes", "3,900"], "between 1 and 512"),
        (["--sizes", "3,9", "--pad-to", "8"], "smaller than the largest batch (9)"),
    ):
        result = lab(*args, "--json")
        assert result.exit_code != 0
        assert words in json.loads(result.stdout)["error"], (args, result.stdout)


def test_text_face_draws_the_bar_and_the_totals():
    text = render(recorded(Recompile, "recompile_plain.json"))
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["step", "batch", "traced"]
    assert "███ 3 (0)" in lines[3] and "███ 3 (1)" in lines[4]
    assert lines[-1] == "not padded: 4 distinct shapes, 4 compiles, 2 cache hits in 6 steps"
