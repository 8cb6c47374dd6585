"""Part ii's drill sets, chapter by chapter: at least 25 drills of all five kinds, every predict
drill's answer depends on its variant (at least 8 of them), and no title twice in a chapter.

A chapter joins ``CHAPTERS`` once its drill set is complete."""

from __future__ import annotations

from collections import Counter

import pytest

from tutor.content.catalog import Catalog
from tutor.grading.variants import draw_params, render

CATALOG = Catalog.load()
CHAPTERS = [5, 6, 7, 8, 9, 11, 12]
KINDS = {"predict", "order", "choice", "code", "fix"}
SEEDS = range(10)


def refs(chapter: int) -> list:
    return [ref for ref in CATALOG.drills() if ref.chapter == chapter]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_twenty_five_drills_of_every_kind(chapter):
    kinds = Counter(ref.drill.kind for ref in refs(chapter))
    assert sum(kinds.values()) >= 25, f"chapter {chapter}: {dict(kinds)}"
    assert set(kinds) == KINDS, f"chapter {chapter} lacks {KINDS - set(kinds)}"
    assert kinds["predict"] >= 8, f"chapter {chapter}: {kinds['predict']} predict drills"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_titles_are_unique_within_the_chapter(chapter):
    titles = Counter(ref.title for ref in refs(chapter))
    assert [title for title, n in titles.items() if n > 1] == []


def _truths(sandbox, drill) -> set[str]:
    cases = []
    for seed in SEEDS:
        params = draw_params(drill.params, seed)
        cases.append({"setup": render(drill.setup, params), "ask": render(drill.ask, params)})
    result = sandbox.call(
        "tutor.probes.grade_predict:predict_seeds",
        cases=cases,
        timeout=170,
        memory_mb=4096,
        profile="compile",
    )
    assert result.ok, f"{drill.id}: {result.status}: {result.reason}"
    return {repr(value.get("value", value.get("error"))) for value in result.value}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_predict_answer_depends_on_the_variant(request, sandbox, chapter):
    predict = [ref for ref in refs(chapter) if ref.drill.kind == "predict"]

    def box(drill):  # a drill of the xla runtime runs there (the test skips where it is not built)
        return request.getfixturevalue("xla_sandbox") if drill.runtime == "xla" else sandbox

    same = [ref.full_id for ref in predict if len(_truths(box(ref.drill), ref.drill)) < 2]
    assert not same, f"the same answer on seeds 0-9: {same}"
