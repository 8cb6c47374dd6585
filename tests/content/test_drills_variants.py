"""Chapters 1-4 drills: the variant changes the answer, titles are unique, no near-duplicates."""

from __future__ import annotations

from collections import Counter

import pytest

from tutor.content.catalog import Catalog
from tutor.grading.variants import draw_params, render

CATALOG = Catalog.load()
FIRST_FOUR = [ref for ref in CATALOG.drills() if ref.chapter <= 4]
PREDICT = [ref for ref in FIRST_FOUR if ref.drill.kind == "predict"]
SEEDS = range(10)


def _truths(sandbox, drill) -> list[str]:
    cases = []
    for seed in SEEDS:
        params = draw_params(drill.params, seed)
        cases.append({"setup": drill.setup_code(params), "ask": render(drill.ask, params)})
    result = sandbox.call(
        "tutor.probes.grade_predict:predict_seeds", cases=cases, timeout=60, memory_mb=2048
    )
    assert result.ok, f"{result.status}: {result.reason}"
    return [repr(value.get("value", value.get("error"))) for value in result.value]


def test_every_predict_answer_depends_on_the_variant(sandbox):
    same = []
    for ref in PREDICT:
        if len(set(_truths(sandbox, ref.drill))) < 2:
            same.append(ref.full_id)
    assert not same, f"the same answer on seeds 0-9: {same}"


@pytest.mark.parametrize("chapter", [1, 2, 3, 4])
def test_titles_are_unique_within_a_chapter(chapter):
    titles = Counter(ref.title for ref in FIRST_FOUR if ref.chapter == chapter)
    assert [title for title, n in titles.items() if n > 1] == []


def test_near_duplicates_are_merged():
    ids = {ref.full_id for ref in FIRST_FOUR}
    for gone in (
        "five-line-loop/which-call-computes-gradients",
        "three-rules-of-autograd/third-step",
        "five-line-loop/device-mismatch",
        "five-line-loop/backward-twice",
    ):
        assert gone not in ids
    assert {
        "three-rules-of-autograd/which-call",
        "five-line-loop/third-step-applies",
        "memory-and-devices/meta-mismatch",
        "reading-the-tape/backward-twice",
    } <= ids


def test_broadcasting_has_drills():
    tagged = [ref for ref in FIRST_FOUR if "broadcasting" in ref.drill.tags]
    assert len(tagged) >= 3
