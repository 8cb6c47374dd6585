"""Predict drills graded fairly through the real sandbox: the drill's likely mistakes (`wrong`
entries computed beside the truth), the prompt's unit, round-off of 0; and what `tutor pack
check` refuses about them, at file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grading.conftest import Ref, refs
from tutor.content.loader import load_pack
from tutor.grading.engine import grade, plan
from tutor.grading.packcheck import check_pack
from tutor.grading.sweep import sweep_drill

PACKS = Path(__file__).parent / "packs"


@pytest.fixture(scope="module")
def fair() -> dict[str, Ref]:
    return refs("fair.yaml")


def line_of(file: Path, text: str) -> int:
    return next(n for n, line in enumerate(file.read_text().splitlines(), 1) if text in line)


def test_a_likely_mistake_gets_its_feedback(fair, sandbox):
    ref = fair["batches"]
    seed = 0
    params = plan(ref, "", seed).params
    n, b = int(params["n"]), int(params["b"])
    assert n % b  # the variant has a partial batch
    dropped = grade(ref, str(n // b), seed, sandbox)
    assert dropped.status == "wrong" and dropped.category == "mistake"
    assert dropped.feedback == (
        f"Not {n // b}. That drops the last, partial batch; a DataLoader keeps it unless "
        "`drop_last=True`."
    )
    assert dropped.hint is None  # the drill's own words, not the generic "redo it by hand"
    twice = grade(ref, str(n // b + 2), seed, sandbox)
    assert "counted twice" in twice.feedback and "partial batch; a" not in twice.feedback
    other = grade(ref, "99", seed, sandbox)
    assert other.feedback == "Not 99." and other.category == "value"
    right = grade(ref, f"{-(-n // b)} batches", seed, sandbox)
    assert right.correct, right.feedback


def test_the_probe_sends_each_mistakes_value_with_the_truth(fair, sandbox):
    ref = fair["batches"]
    call = plan(ref, "", 3).call
    assert call is not None and len(call.kwargs["wrong"]) == 2  # one round trip
    result = sandbox.call(call.target, timeout=call.timeout, **call.kwargs)
    n, b = int(plan(ref, "", 3).params["n"]), int(plan(ref, "", 3).params["b"])
    values = [m["value"]["value"] for m in result.value["wrong"]]
    assert values == [n // b, n // b + 2]
    assert result.value["value"]["value"] == -(-n // b)


def test_an_answer_in_another_unit_than_the_prompts_is_wrong_with_the_reason(fair, sandbox):
    ref = fair["buffer-size"]
    g = grade(ref, "3 KiB", 1, sandbox)
    assert g.status == "wrong" and g.feedback == (
        "Your answer is in KiB; the question asks for MiB."
    )
    size = plan(ref, "", 1).params["n"]
    assert grade(ref, f"{size}.0 MiB", 1, sandbox).correct
    assert grade(ref, f"{size}", 1, sandbox).correct


def test_zero_is_right_for_the_round_off_of_zero(fair, sandbox):
    ref = fair["lost-momentum"]
    g = grade(ref, "0", 0, sandbox)
    assert g.correct and "round-off" in g.feedback
    assert g.expected != "0.0"  # torch's truth is not exactly 0
    mistake = grade(ref, "-0.45", 0, sandbox)
    assert "uninterrupted" in mistake.feedback


def test_pack_check_refuses_a_mistake_that_is_the_truth_or_broken(sandbox):
    file = PACKS / "fair_broken.yaml"
    found = {p.field: p for p in check_pack(file, sandbox)}
    same = found["drills[0].wrong[0].ask"]
    assert same.severity == "error" and "a right answer matches too" in same.message
    assert "(n=1)" in same.message
    assert (same.line, same.col) == (line_of(file, 'ask: "{n}"'), 14)
    broken = found["drills[1].wrong[0].ask"]
    assert broken.severity == "error" and "NameError" in broken.message
    assert broken.line == line_of(file, "{n} + nope")
    warned = found["drills[2].ask"]
    assert warned.severity == "warning" and "`atol`" in warned.message
    assert warned.line == line_of(file, "ask: w.item()")


def test_the_fair_pack_checks_cleanly(sandbox):
    assert check_pack(PACKS / "fair.yaml", sandbox) == []


def test_the_sweep_finds_a_mistake_that_is_the_truth_on_any_seed(sandbox):
    pack = load_pack(PACKS / "fair_broken.yaml")
    drill = pack.drills[0]
    stats, found = sweep_drill(Ref(pack.full_id(drill), drill), list(range(8)), sandbox)
    assert found and found[0][0] == ("wrong", 0, "ask")
    assert "a right answer matches too" in found[0][1] and stats.failing_seed is not None
