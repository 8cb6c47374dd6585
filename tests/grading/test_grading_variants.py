"""Variants: params drawn from a seed, replayable; text rendered with them."""

from __future__ import annotations

from tutor.content.models import ChoiceParam, IntParam
from tutor.grading.variants import draw_params, make_variant

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
    v = make_variant(choice.full_id, choice.drill, 3)
    assert sorted(v.choices) == sorted(c.answer for c in choice.drill.choices)


def test_the_grading_engine_never_imports_torch():
    import subprocess
    import sys

    code = (
        "import sys, tutor.grading.engine, tutor.grading.packcheck, tutor.commands.drill_run;"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
