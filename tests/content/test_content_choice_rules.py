"""A wrong choice's `why` never gives the right answer away (`tutor pack check`)."""

from __future__ import annotations

from tutor.content.choice_rules import giveaway
from tutor.content.pack_lint import check_paths

PACK = """\
pack: leaky
title: Leaky
chapter: 1
drills:
  - id: pick
    kind: choice
    prompt: Which call computes the gradients?
    choices:
      - answer: loss.backward()
        correct: true
      - answer: optimizer.step()
        why: {why}
"""


def test_a_why_that_names_the_right_answer_is_a_problem(tmp_path):
    path = tmp_path / "leaky.yaml"
    path.write_text(PACK.format(why="The gradients come from `loss.backward()`, not from here."))
    packs, problems = check_paths([path])
    assert not packs
    (problem,) = problems
    assert problem.field == "drills[0].choices[1].why" and problem.line == 12
    assert "gives the right answer away" in problem.message


def test_a_why_that_says_only_why_the_pick_is_wrong_is_fine(tmp_path):
    path = tmp_path / "leaky.yaml"
    path.write_text(PACK.format(why="step() reads the gradients; it does not compute them."))
    packs, problems = check_paths([path])
    assert packs and not problems


def test_a_run_of_four_words_of_a_long_answer_gives_it_away():
    right = "A 256×784 weight and a 256-element bias, 200,960 parameters in all."
    assert giveaway(right, "PyTorch builds a 256×784 weight and a bias.") == "a 256×784 weight and"
    assert giveaway(right, "The count is right, but not the orientation.") is None
    assert giveaway("model(x)", "Not `model(x)`: the forward pass.") == "model(x)"
    assert giveaway("model(x)", "The model records the tape.") is None
