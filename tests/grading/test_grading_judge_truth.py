"""The judge decides from its own truth: nothing the learner's process sends is treated as a
torch object, the public data of setup is the judge's own copy, a check that runs over nothing
fails, and an answer hard-coding its own variant fails on the others. Each attack is a real
answer graded by the real engine in the real sandbox, under each containment layer."""

from __future__ import annotations

import pytest

from tests.grading.conftest import refs, unread
from tests.sandbox.conftest import layer_params
from tutor.grading.engine import grade


@pytest.fixture(scope="module")
def judge():
    return refs("judge.yaml")


@pytest.fixture(scope="module", params=layer_params())
def sandbox(request):
    """A started sandbox per containment layer."""
    from tutor.sandbox import Sandbox

    box = Sandbox(containment=request.param)
    box.start()
    yield box
    box.close()


def graded(judge, sandbox, drill: str, answer: str, seed: int = 3):
    return grade(judge[drill], answer, seed, sandbox)


HONEST = {
    "halve": "def halve(t):\n    return t * 0.5\n",
    "doubled-data": "z = y + y\n",
    "count-each": "def count(model):\n    return sum(p.numel() for p in model.parameters())\n",
    "positive-steps": "steps = [m if m > 0 else -m for m in moves]\n",
}


@pytest.mark.parametrize("drill", sorted(HONEST))
def test_honest_answers_pass(judge, sandbox, drill):
    for seed in (0, 5):
        g = graded(judge, sandbox, drill, HONEST[drill], seed)
        assert g.correct, (seed, g.feedback)


def test_an_object_claiming_to_be_a_tensor_is_an_object(judge, sandbox):
    code = (
        "class Fake:\n    pass\n"
        "Fake.__module__ = 'torch'\nFake.__qualname__ = 'Tensor'\n"
        "def halve(t):\n    return Fake()\n"
    )
    g = graded(judge, sandbox, "halve", code)
    assert g.status == "wrong" and g.category == "tampered", g  # the reading refuses its dunders
    g = unread(judge["halve"], code, 3, sandbox)  # and the judge, reached anyway, is not fooled
    assert g.status == "wrong", g
    assert "returned an object, not a tensor" in g.feedback


def test_a_claim_of_a_python_torch_class_still_reads(judge, sandbox):
    """A learner module claims nn.Module (pure Python): isinstance works, nothing crashes."""
    code = "def count(model):\n    return sum(p.numel() for p in model.parameters())\n"
    g = graded(judge, sandbox, "count-each", code)
    assert g.correct, g.feedback


def test_zeroing_the_setup_data_changes_nothing_the_check_compares(judge, sandbox):
    g = graded(judge, sandbox, "doubled-data", "y.zero_()\nz = y * 2\n")
    assert not g.correct, g
    g = graded(judge, sandbox, "doubled-data", "y = torch.zeros(4)\nz = y * 2\n")
    assert not g.correct, g


def test_a_loop_over_nothing_proves_nothing(judge, sandbox):
    code = "def _models():\n    return iter(())\ndef count(model):\n    return 0\n"
    g = graded(judge, sandbox, "count-each", code)
    assert not g.correct, g
    assert "ran zero times" in g.feedback or "may not" in g.feedback, g.feedback


def test_all_over_nothing_proves_nothing(judge, sandbox):
    g = graded(judge, sandbox, "positive-steps", "steps = []\n")
    assert not g.correct, g
    assert "proves nothing" in g.feedback, g.feedback


def test_a_hard_coded_variant_fails_on_the_other_variants(judge, sandbox):
    ref = judge["mean-of-ranks"]
    from tutor.grading.variants import draw_params

    seed = 3
    w = draw_params(ref.drill.params, seed)["w"]
    g = graded(judge, sandbox, "mean-of-ranks", f"def mean(total):\n    return total / {w}\n", seed)
    assert not g.correct, g
    assert "another one" in g.feedback and "w=" in g.feedback, g.feedback
    assert g.params == {"w": w}
    honest = graded(
        judge, sandbox, "mean-of-ranks", "def mean(total):\n    return total / world\n", seed
    )
    assert honest.correct, honest.feedback
    assert "another one" not in honest.feedback, honest.feedback


def test_other_variants_differ_from_the_attempts_own():
    from tutor.grading.variants import draw_params, other_seeds

    ref = refs("judge.yaml")["mean-of-ranks"]
    for seed in range(20):
        own = draw_params(ref.drill.params, seed)
        others = [draw_params(ref.drill.params, s) for s in other_seeds(ref.drill.params, seed, 2)]
        assert own not in others and others[0] != others[1]
        assert other_seeds(ref.drill.params, seed, 2) == other_seeds(ref.drill.params, seed, 2)


def judged_without_pre_pass(ref, answer: str, seed: int, sandbox):
    """The grade as the judge alone reaches it: the UI's torch-free reading skipped, the
    judge's own reading left on."""
    from tutor.grading import codecheck
    from tutor.grading.engine import CODE_TIMEOUT, judge, run_call
    from tutor.grading.grade import Call, Plan
    from tutor.grading.variants import draw_params

    params = draw_params(ref.drill.params, seed)
    kwargs = codecheck.code_kwargs(ref.drill, params, answer, seed)
    call = Call(target=codecheck.TARGET, kwargs=kwargs, timeout=CODE_TIMEOUT)
    p = Plan(seed=seed, params=params, call=call)
    return judge(ref, p, answer, run_call(p, sandbox))


@pytest.mark.parametrize(
    ("drill", "answer", "category"),
    [
        (
            "count-each",
            "def _models():\n    return iter(())\ndef count(model):\n    return 0\n",
            "tampered",
        ),
        ("halve", "import sys\ndef halve(t):\n    return t / 2\n", "tampered"),
        ("doubled-data", "y = y\nz = y * 2\n", "tampered"),
    ],
)
def test_the_judge_reads_the_answer_itself(judge, sandbox, drill, answer, category):
    """Whatever the UI's pre-pass did or did not refuse, the judge reads the answer with its
    own torch and refuses it before trusting anything its process sends."""
    g = judged_without_pre_pass(judge[drill], answer, 3, sandbox)
    assert not g.correct and g.category == category, g
    assert "line" in g.feedback, g.feedback
