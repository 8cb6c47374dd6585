"""Order and choice drills: graded without the sandbox."""

from __future__ import annotations

from tutor.grading.engine import judge, plan


def judge_now(ref, answer: str, seed: int, result=None):
    """Order and choice drills are judged from their plan alone (``result`` stays None)."""
    return judge(ref, plan(ref, answer, seed), answer, result)


RIGHT = "optimizer.zero_grad()\nout = model(x)\nloss = criterion(out, y)\nloss.backward()\noptimizer.step()"


def test_order_right(basics):
    ref = basics["five-lines"]
    assert plan(ref, RIGHT, 1).call is None
    g = judge_now(
        ref, "\n  " + RIGHT.replace("out = model(x)", "out  =  model(x)") + "\n\n", 1, None
    )
    assert g.correct and g.status == "correct"


def test_order_names_the_first_line_out_of_place(basics):
    lines = RIGHT.splitlines()
    lines[3], lines[4] = lines[4], lines[3]
    g = judge_now(basics["five-lines"], "\n".join(lines), 1, None)
    assert g.status == "wrong" and not g.correct
    assert "Line 4" in g.feedback and "optimizer.step()" in g.feedback
    assert g.expected == RIGHT


def test_order_malformed(basics):
    ref = basics["five-lines"]
    g = judge_now(ref, RIGHT.replace("loss.backward()", "loss.backwards()"), 1, None)
    assert g.status == "invalid" and "loss.backwards()" in g.feedback
    g = judge_now(ref, "\n".join(RIGHT.splitlines()[:4]), 1, None)
    assert g.status == "invalid" and "missing" in g.feedback


def test_choice_right_and_wrong_with_why(basics):
    ref = basics["no-grad"]
    good = judge_now(ref, "stops recording operations on the tape inside the block.", 0, None)
    assert good.correct
    bad = judge_now(ref, "Sets every .grad to zero.", 0, None)
    assert bad.status == "wrong" and bad.feedback == "That is optimizer.zero_grad()."
    assert bad.expected.startswith("Stops recording")


def test_choice_not_offered(basics):
    g = judge_now(basics["no-grad"], "It makes the model faster", 0, None)
    assert g.status == "invalid"
