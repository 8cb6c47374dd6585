"""Part ii's drill sets, chapter by chapter: at least 25 drills of all five kinds, every predict
drill's answer depends on its variant (at least 8 of them), and no title twice in a chapter.
In chapters 5-12, no text a learner reads does arithmetic with a param that is 0 in a variant.

A chapter joins ``CHAPTERS`` once its drill set is complete."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter

import pytest

from tutor.content.catalog import Catalog
from tutor.content.models import IntParam
from tutor.grading.variants import draw_params, render, render_prose

CATALOG = Catalog.load()
CHAPTERS = [5, 6, 7, 8, 9, 10, 11, 12]
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
        cases.append({"setup": drill.setup_code(params), "ask": render(drill.ask, params)})
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


def _variants(params) -> list[dict]:
    """Every combination of the params' values where there are at most 2,000, else 2,000 draws."""
    values = [
        list(range(p.int_[0], p.int_[1] + 1)) if isinstance(p, IntParam) else list(p.choice)
        for p in params.values()
    ]
    if math.prod(len(v) for v in values) > 2000:
        return [draw_params(params, seed) for seed in range(2000)]
    return [dict(zip(params, combo, strict=True)) for combo in itertools.product(*values)]


def _prose(drill) -> list[str]:
    texts = [drill.prompt, drill.explain or "", *(drill.hints or [])]
    texts += [c.answer + " " + c.why for c in getattr(drill, "choices", None) or []]
    texts += [getattr(w, "feedback", None) or "" for w in getattr(drill, "wrong", None) or []]
    return texts


#: arithmetic with a param that is 0 in some variant: `12/0 distinct values`, `k mod 0`
BY_ZERO = re.compile(r"\b\d+ ?/ ?0\b|\bmod 0\b|\bdivided by 0\b")


@pytest.mark.parametrize("chapter", range(5, 13))
def test_no_text_divides_by_a_param_that_is_zero(chapter):
    found = []
    for ref in refs(chapter):
        for params in _variants(ref.drill.params):
            for text in _prose(ref.drill):
                prose = re.sub(r"```.*?```", "", render_prose(text, params), flags=re.S)
                found += [
                    f"{ref.full_id} {params}: {m.group(0)!r}" for m in BY_ZERO.finditer(prose)
                ]
    assert not found, found
