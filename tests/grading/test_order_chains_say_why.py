"""Order drills whose lines form one chain say why a misplaced line needs the one before it (the
chain's `why`s), where the feedback was only "Line N, ..., is out of place: it belongs later"."""

from __future__ import annotations

import pytest

from tests.grading.test_grading_fair_order import in_order, lines_of, right_orders
from tutor.content.catalog import Catalog
from tutor.grading.engine import judge, plan

CATALOG = Catalog.load()

#: (drill, a learner's wrong order as line numbers from 1, words of the why it reads)
WRONG = [
    ("bridges/lazy-step-order", (1, 2, 4, 3, 5, 6), "A miss is the answer of a lookup"),
    ("bridges/lazy-step-order", (2, 1, 3, 4, 5, 6), "before them there is nothing to collect"),
    ("bridges/lazy-step-order", (1, 2, 3, 4, 6, 5), "only once it has run"),
    ("training-run/build-train-save", (2, 3, 4, 1, 5, 6), "seeded after them"),
    ("training-run/build-train-save", (1, 2, 3, 4, 6, 5), "saved before the epoch"),
]


@pytest.mark.parametrize(("drill", "numbers", "words"), WRONG)
def test_a_wrong_order_reads_why(drill, numbers, words):
    ref = CATALOG.drill(drill)
    answer = in_order(lines_of(ref), numbers)
    p = plan(ref, answer, 0)
    assert p.call is None  # read, not run
    g = judge(ref, p, answer, None)
    assert g.status == "wrong" and words in g.feedback, g.feedback


@pytest.mark.parametrize("drill", sorted({d for d, _, _ in WRONG}))
def test_the_chain_accepts_only_the_written_order(drill):
    ref = CATALOG.drill(drill)
    assert right_orders(ref) == {tuple(range(1, len(ref.drill.lines) + 1))}
