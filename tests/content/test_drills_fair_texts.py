"""Part ii drills that once graded unfairly or taught the wrong thing, each held to what torch
does now: the ops an explanation counts, the ranks a prompt names, the numbers an explanation
gives, and variants that change what must be reasoned, not only the numbers."""

from __future__ import annotations

import ast
import itertools
import re

from tutor.content.catalog import Catalog
from tutor.content.models import IntParam
from tutor.grading.variants import render_prose

CATALOG = Catalog.load()


def every_variant(drill, most: int = 100_000) -> list[dict]:
    """The drill's variants, every combination of its params' values (the first ``most``)."""
    values = [
        range(p.int_[0], p.int_[1] + 1) if isinstance(p, IntParam) else list(p.choice)
        for p in drill.params.values()
    ]
    combos = itertools.islice(itertools.product(*values), most)
    return [dict(zip(drill.params, combo, strict=True)) for combo in combos]


def prose(drill) -> list[str]:
    texts = [drill.prompt, drill.explain or "", *(drill.hints or [])]
    texts += [c.answer + " " + c.why for c in getattr(drill, "choices", None) or []]
    texts += [getattr(w, "feedback", None) or "" for w in getattr(drill, "wrong", None) or []]
    texts += [c.why for c in getattr(drill, "constraints", None) or [] if getattr(c, "why", "")]
    return texts


# ---------------------------------------------------------------- the texts


def test_a_collective_prompt_names_only_ranks_that_exist():
    # "rank 2" of a variant with two values was a rank the run never had
    for name in ("all-reduce-value", "all-gather-value", "broadcast-value", "reduce-scatter-value"):
        drill = CATALOG.drill(f"ranks-and-collectives/{name}").drill
        for params in every_variant(drill):
            world = len(ast.literal_eval(params["values"]))
            named = [params[k] for k in ("k", "src") if k in params]
            assert all(0 <= r < world for r in named), (name, params)


#: a brace left in prose once the placeholders are filled in (a `{n}` misspelt, a `}` lost)
STRAY = re.compile(r"[{}]")


def test_no_part_two_text_shows_a_stray_brace():
    found = []
    for ref in CATALOG.drills():
        if ref.chapter < 5:
            continue
        for params in every_variant(ref.drill, 50):
            for text in prose(ref.drill):
                shown = render_prose(text, params)
                shown = re.sub(r"```.*?```", "", shown, flags=re.S)
                shown = re.sub(r"`[^`]*`", "", shown)  # code spans may hold dicts and sets
                if STRAY.search(shown):
                    found.append(f"{ref.full_id} {params}: {shown[:80]!r}")
                    break
    assert found == []


def test_the_bf16_explanation_speaks_of_the_variants_value():
    drill = CATALOG.drill("tpu-practice/bf16-rounds").drill
    for params in every_variant(drill):
        text = render_prose(drill.explain, params)
        assert f"({params['v']}) · 2⁻⁷" in text and f"{params['dtype']} value" in text


# ---------------------------------------------------------------- what torch does


def test_unit_rows_is_the_two_operator_calls_its_explanation_counts(course):
    drill = course.drill("09-clock.yaml", "batched-unit-rows")
    run = course.sandbox.run(
        "from torch.utils._python_dispatch import TorchDispatchMode\n"
        "class Record(TorchDispatchMode):\n"
        "    def __init__(self):\n        super().__init__()\n        self.ops = []\n"
        "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
        "        self.ops.append(func.overloadpacket.__name__)\n"
        "        return func(*args, **(kwargs or {}))\n"
        f"{drill.reference}\n"
        "x = torch.randn(5, 3)\n"
        "with Record() as batched:\n    unit_rows(x)\n"
        "with Record() as loop:\n    torch.stack([x[i] / x[i].norm() for i in range(len(x))])\n"
        "print(batched.ops, len(loop.ops))\n",
        timeout=60.0,
    )
    assert run.ok, run.reason
    ops, looped = run.stdout.strip().rsplit(" ", 1)
    assert ast.literal_eval(ops) == ["linalg_vector_norm", "div"]
    assert int(looped) == 4 * 5 + 1
    assert "two\n      operator calls" in drill.explain or "two operator calls" in " ".join(
        drill.explain.split()
    )
    assert "4N + 1" in drill.explain


def test_eager_linear_without_a_bias_on_a_batch_of_sequences_goes_through_matmul(course):
    drill = course.drill("07-graphs.yaml", "eager-dispatch-linear")
    ops = ast.literal_eval(course.truth(drill, {"bias": False, "shape": "2, 5, 3"}))
    short = [op.split(".")[1] for op in ops]
    assert short == ["t", "view", "mm", "_unsafe_view"], ops
    hint = drill.hints[2]
    without = hint[hint.index("Without one") :]
    places = [without.index(f"`{op}`") for op in short]
    assert places == sorted(places), "the hint names the bias-free ops in the order they run"
    biased = ast.literal_eval(course.truth(drill, {"bias": True, "shape": "2, 5, 3"}))
    assert [op.split(".")[1] for op in biased] == ["view", "t", "addmm", "view"]


def truths(course, drill, params: list[dict]) -> list[str]:
    return [course.truth(drill, p, timeout=120.0) for p in params]


def test_global_changes_asks_a_different_question_of_each_program(course):
    # a Python number is a constant of the graph (guarded), a tensor filled in place is an input
    # the graph reads, a tensor rebound is another object: not every program compiles twice
    drill = course.drill("06-guards.yaml", "global-changes")
    found = truths(course, drill, [{"program": p} for p in drill.params["program"].choice])
    assert len(set(found)) >= 2, found


def test_print_every_call_asks_a_different_question_of_each_line(course):
    drill = course.drill("06-guards.yaml", "print-every-call")
    lines = drill.params["line"].choice
    found = truths(course, drill, [{"n": 4, "line": line} for line in lines])
    assert len(set(found)) >= 2, found
