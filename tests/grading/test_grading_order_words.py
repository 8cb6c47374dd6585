"""Order feedback reads as a sentence around any line: a line of code is quoted as code, a
line of prose in quotation marks without its own full stop, and a line of code that uses a
name a later line makes says which name and which line."""

from __future__ import annotations

from tutor.content.catalog import Catalog
from tutor.grading.order import judge_order
from tutor.grading.order_lines import is_code, made_later, quote_line
from tutor.grading.variants import draw_params


def _answer(drill_id: str, positions: tuple[int, ...]) -> tuple[object, str]:
    drill = Catalog.load().drill(drill_id).drill
    return drill, "\n".join(drill.lines[p - 1] for p in positions)  # type: ignore[attr-defined]


def test_a_line_of_prose_is_quoted_as_prose_not_as_code():
    drill, answer = _answer("guards/first-call-order", (1, 3, 2, 4, 5))
    verdict = judge_order(drill, draw_params(drill.params, 0), answer)  # type: ignore[arg-type]
    assert verdict.feedback == (
        "Line 2 (“The backend compiles the FX graph into a callable”) is out of place: "
        "it belongs later."
    )


def test_a_line_of_code_names_what_it_uses_before_a_later_line_makes_it():
    drill, answer = _answer("bridges/torchax-to-stablehlo", (1, 3, 2, 4, 5))
    verdict = judge_order(drill, draw_params(drill.params, 0), answer)  # type: ignore[arg-type]
    assert verdict.feedback == (
        "Line 2 (`jitted = jax.jit(fn)`) is out of place: it uses `fn`, made on line 3."
    )
    drill, answer = _answer("bridges/torchax-to-stablehlo", (5, 1, 2, 3, 4))
    verdict = judge_order(drill, draw_params(drill.params, 0), answer)  # type: ignore[arg-type]
    assert verdict.feedback == (
        "Line 1 (`print(lowered.as_text())`) is out of place: it uses `lowered`, made on line 5."
    )


def test_a_line_that_uses_nothing_made_later_only_belongs_later():
    drill, answer = _answer("honest-clock/gpu-timing-lines", (2, 1, 3, 4, 5, 6))
    verdict = judge_order(drill, draw_params(drill.params, 0), answer)  # type: ignore[arg-type]
    assert verdict.feedback.endswith("is out of place: it belongs later.")


def test_code_prose_and_block_heads_are_told_apart():
    for code in ("out = model(x)", "for i in range(steps):", "with xp.Trace('forward'):",
                 "cf(torch.ones(4), 2)   # compiles: nothing cached", "import torchax, jax"):  # fmt: skip
        assert is_code(code), code
        assert quote_line(code) == f"`{code.strip()}`"
    for prose in ("start the clock", "rank 2 calls all_reduce", "placeholder p_0_weight",
                  "The worker calls `dataset[i]` for each index."):  # fmt: skip
        assert not is_code(prose), prose
    assert quote_line(" The worker calls `dataset[i]`. ") == "“The worker calls `dataset[i]`”"
    assert quote_line("wait...") == "“wait...”"


def test_names_made_by_imports_defs_and_unpacking_count():
    lines = ["y = f(x)", "def f(v): return v", "import torch as t", "a, x = t.ones(1), 2"]
    assert made_later(lines, 0) == ("f", 1)
    assert made_later(["print(t.ones(1))", *lines], 0) == ("t", 3)
    assert made_later(["z = 1", "print(z)"], 1) is None
    assert made_later(["The sampler yields indices.", "x = 1"], 0) is None
