"""A listed mistake is told where no trial compares outputs: an answer whose check (an
``assert``) fails exactly as a ``wrong`` answer's does, or whose code raises exactly as a
``wrong`` answer's does (the same exception type and message), gets that entry's feedback, as
an answer that matches a ``wrong`` answer's outputs trial by trial does. Graded by the real
engine in the real sandbox."""

from __future__ import annotations

import pytest

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
    # torch's message runs to several lines: the listed mistake's line comes first, above it
    assert verdict.feedback.startswith("That names the feature dimension")
    assert verdict.feedback.split("\n\n", 1)[1].startswith("Your code raised UserError at line 2")


def test_a_failure_two_listed_mistakes_share_tells_neither(sandbox):
    ref = refs("mistakes.yaml")["square-it"]
    verdict = grade(ref, "y = 2 * x\n", 0, sandbox)
    assert verdict.feedback == f"The check failed: {_held(ref, 2)}"


def test_telling_a_mistake_stops_at_half_the_runs_time():
    import subprocess
    import sys

    script = (
        "import resource, time\n"
        "resource.setrlimit(resource.RLIMIT_CPU, (100, 101))\n"
        "from tutor.probes import grade_wrong_failure as m\n"
        "kw = {'setup': 'x = 1', 'assert_code': 'assert y == 2, f\"y is {y}\"', 'seed': 0,\n"
        "      'wrongs': ['y = 3'], 'started': time.perf_counter()}\n"
        "failed = ('assert', {'type': 'AssertionError', 'message': 'y is 3'})\n"
        "print(m.matched_failure(kw, *failed))\n"
        "kw['started'] -= 60\n"  # 60 s of a 100 s run gone: no more wrong answers run
        "print(m.matched_failure(kw, *failed))\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["0", "None"]


def test_an_answer_only_checked_to_fail_is_not_matched(sandbox):
    from tutor.grading import codecheck
    from tutor.grading.variants import draw_params

    ref = refs("mistakes.yaml")["double-it"]
    params = draw_params(ref.drill.params, 0)
    run = codecheck.code_kwargs(ref.drill, params, "y = x * 3\n", 0)  # type: ignore[arg-type]
    for stop_on, matched in (("fail", 0), ("pass", None)):
        result = sandbox.call(codecheck.SEEDS_TARGET, runs=[run], stop_on=stop_on, timeout=30.0)
        assert result.ok, result.message
        assert result.value[0]["matched"] == matched, stop_on


def test_an_eval_without_no_grad_is_told_apart_from_item_alone(sandbox):
    ref = Catalog.load().drill("honest-clock/fix-eval-tape")
    drill = ref.drill
    for j, entry in enumerate(drill.wrong_answers):  # type: ignore[attr-defined]
        verdict = grade(ref, entry.code, 3, sandbox)
        assert verdict.feedback.endswith(entry.feedback.strip()), (j, verdict.feedback)


def test_a_step_clipped_too_late_is_told_what_its_norms_are(sandbox):
    ref = Catalog.load().drill("training-run/clip-in-the-step")
    late = ref.drill.wrong_answers[0].code  # type: ignore[attr-defined]
    verdict = grade(ref, late, 7, sandbox)
    assert (
        "before clipping; your norms are those of steps whose gradient was not clipped before "
        "the update" in verdict.feedback
    ), verdict.feedback


@pytest.mark.parametrize(
    ("drill", "ending"),
    [
        (  # no optimizer step: the weights never moved
            "training-run/overfit-one-batch",
            "the model did not learn it; its weights are still where make_model() left them",
        ),
        (  # a best state that moved on: it holds the last epoch's weights
            "training-run/best-state-that-moved-on",
            "it does not hold that epoch's weights; it holds those after epoch 40, the last",
        ),
    ],
)
def test_the_starter_and_every_listed_mistake_are_told_what_they_hold(sandbox, drill, ending):
    ref = Catalog.load().drill(drill)
    for answer in (ref.drill.starter, *(w.code for w in ref.drill.wrong_answers)):  # type: ignore[attr-defined]
        verdict = grade(ref, answer, 7, sandbox)
        assert verdict.feedback.endswith(ending), verdict.feedback
