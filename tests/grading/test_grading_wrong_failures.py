"""A listed mistake is told where no trial compares outputs: an answer whose check (an
``assert``) fails exactly as a ``wrong`` answer's does, or whose code raises exactly as a
``wrong`` answer's does (the same exception type and message), gets that entry's feedback, as
an answer that matches a ``wrong`` answer's outputs trial by trial does. Graded by the real
engine in the real sandbox."""

from __future__ import annotations

from tutor.content.catalog import Catalog
from tutor.grading.engine import grade
from tutor.grading.variants import draw_params

from .conftest import refs


def _held(ref, k: int) -> str:
    """``y holds [...]`` for ``y = k * x`` on seed 0's ``x``."""
    n = draw_params(ref.drill.params, 0)["n"]
    return f"y holds {[float(k * i) for i in range(n)]}"


LISTED = (
    "A different example batch only moves the constant; the graph still accepts one batch size."
)


def test_an_assert_failure_like_a_listed_mistakes_gets_its_feedback(sandbox):
    ref = refs("mistakes.yaml")["double-it"]
    tripled = grade(ref, "y = x * 3\n", 0, sandbox)  # not the entry's text: the same failure
    assert tripled.feedback == f"The check failed: {_held(ref, 3)}. That triples `x`."
    unlisted = grade(ref, "y = x * 4\n", 0, sandbox)
    assert unlisted.feedback == f"The check failed: {_held(ref, 4)}"
    silent = grade(ref, "y = x - x\n", 0, sandbox)  # like an entry without feedback
    assert silent.feedback == f"The check failed: {_held(ref, 0)}"


def test_code_that_raises_like_a_listed_mistake_gets_its_feedback(sandbox):
    ref = refs("mistakes.yaml")["double-it"]
    raised = grade(ref, "y = x.doubled()\n", 0, sandbox)
    assert raised.feedback.startswith("Your code raised AttributeError at line 1: ")
    assert raised.feedback.endswith(". Tensors have no `doubled` method; write the arithmetic.")
    other = grade(ref, "y = x.tripled()\n", 0, sandbox)
    assert "Tensors have no" not in other.feedback


def test_an_export_taken_at_another_batch_is_told_the_drills_listed_mistake(sandbox):
    ref = Catalog.load().drill("graphs/export-any-batch")
    at_7 = "from torch.export import Dim, export\nep = export(mlp, (torch.randn(7, 4),))\n"
    verdict = grade(ref, at_7, 1, sandbox)
    assert verdict.feedback == (
        "The check failed: batch 1: `ep.module()` refuses it (AssertionError: Guard failed: "
        "input.size()[0] == 7); the graph holds the example's batch, 7, as a constant. " + LISTED
    )
    at_5 = at_7.replace("(7, 4)", "(5, 4)")
    verdict = grade(ref, at_5, 1, sandbox)
    assert verdict.feedback.endswith("the graph holds the example's batch, 5, as a constant")
    assert LISTED not in grade(ref, ref.drill.starter, 1, sandbox).feedback  # type: ignore[attr-defined]
    features = at_7.replace(
        "(7, 4),))", '(3, 4),), dynamic_shapes={"input": {1: Dim("features")}})'
    )
    verdict = grade(ref, features, 1, sandbox)
    assert verdict.feedback.startswith("Your code raised UserError at line 2")
    assert verdict.feedback.endswith("pins to 4; the batch is dimension 0.")


def test_a_failure_two_listed_mistakes_share_tells_neither(sandbox):
    ref = refs("mistakes.yaml")["square-it"]
    verdict = grade(ref, "y = 2 * x\n", 0, sandbox)
    assert verdict.feedback == f"The check failed: {_held(ref, 2)}"
