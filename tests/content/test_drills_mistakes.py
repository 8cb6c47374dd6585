"""Every predict drill names its likely mistakes (`wrong:` entries), so that a learner who has
the idea half right hears what their number most likely means instead of a note to redo the
work. A drill with no single classic mistake is named in ``WITHOUT``, with the reason.

A new chapter joins ``CHAPTERS`` once each of its predict drills names its mistakes."""

from __future__ import annotations

import pytest

from tutor.content.catalog import Catalog

CATALOG = Catalog.load()
CHAPTERS = list(range(1, 13))

#: predict drills without a `wrong:` entry, each with why no single classic mistake exists
WITHOUT: dict[str, str] = {}


def predicts(chapter: int) -> list:
    return [r for r in CATALOG.drills() if r.chapter == chapter and r.drill.kind == "predict"]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_predict_drill_names_its_likely_mistakes(chapter):
    bare = [r.full_id for r in predicts(chapter) if not r.drill.wrong]
    assert sorted(set(bare) - set(WITHOUT)) == [], f"chapter {chapter}: no `wrong:` entries"


def test_each_named_exception_is_a_predict_drill_still_without_mistakes():
    for full_id, why in WITHOUT.items():
        ref = CATALOG.drill(full_id)
        assert ref.drill.kind == "predict" and not ref.drill.wrong, full_id
        assert why.strip(), f"{full_id}: say why it has no likely mistake"
