"""Variants: params drawn from a seed, replayable; text rendered with them."""

from __future__ import annotations

import random

from tutor.content.models import ChoiceParam, IntParam
from tutor.grading.attempt import make_variant
from tutor.grading.variants import draw_params, new_seed, shuffled

PARAMS = {"a": IntParam(int=(2, 5)), "c": ChoiceParam(choice=[3, 4, 6])}


def test_same_seed_same_params():
    assert draw_params(PARAMS, 7) == draw_params(PARAMS, 7)


def test_int_ranges_are_inclusive_and_choices_drawn_from_the_list():
    seen_a, seen_c = set(), set()
    for seed in range(300):
        p = draw_params(PARAMS, seed)
        seen_a.add(p["a"])
        seen_c.add(p["c"])
    assert seen_a == {2, 3, 4, 5}
    assert seen_c == {3, 4, 6}


def test_variant_renders_prompt_setup_and_hints(basics):
    ref = basics["permute-strides"]
    v = make_variant(ref.full_id, ref.drill, 11)
    p = v.params
    assert f"torch.randn({p['a']}, {p['b']}, {p['c']})" in v.prompt
    assert v.setup.strip() == f"x = torch.randn({p['a']}, {p['b']}, {p['c']})"
    assert f"({p['a']}, {p['b']}, {p['c']})" in v.hints[0]
    assert "{" not in v.prompt


def test_order_lines_are_shuffled_out_of_order_and_choices_all_shown(basics):
    order = basics["five-lines"]
    for seed in range(20):
        v = make_variant(order.full_id, order.drill, seed)
        assert sorted(v.lines) == sorted(order.drill.lines)
        assert v.lines != list(order.drill.lines)
    choice = basics["no-grad"]
    written = [c.answer for c in choice.drill.choices]
    for seed in range(20):
        v = make_variant(choice.full_id, choice.drill, seed)
        assert sorted(v.choices) == sorted(written)
        assert v.choices != written  # the first-written choice is not always first
    again = make_variant(choice.full_id, choice.drill, 3)
    assert again.choices == make_variant(choice.full_id, choice.drill, 3).choices


def test_shuffled_leaves_only_what_cannot_move():
    rng = random.Random(0)
    assert shuffled(["a", "a"], rng) == ["a", "a"]
    assert shuffled([], rng) == []
    assert all(shuffled(["a", "b"], random.Random(s)) == ["b", "a"] for s in range(10))


def test_new_seed_is_in_range_avoids_and_replays_from_an_rng():
    seeds = [new_seed(random.Random(5)) for _ in range(3)]
    assert len(set(seeds)) == 1  # same rng state, same seed
    first = seeds[0]
    assert new_seed(random.Random(5), avoid={first}) != first
    drawn = {new_seed() for _ in range(50)}
    assert all(1 <= s < 2**31 for s in drawn) and len(drawn) > 40


def test_the_grading_engine_never_imports_torch():
    import subprocess
    import sys

    code = (
        "import sys, tutor.grading.engine, tutor.grading.packcheck, tutor.commands.drill_run;"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
