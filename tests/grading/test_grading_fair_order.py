"""Order drills whose right orders are many: every order that keeps the drill's constraints is
right, and an order with effects torch can observe is run in the sandbox and checked; what `tutor
pack check` refuses about them, at file:line:col."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.grading.conftest import Ref, refs
from tutor.content.catalog import Catalog
from tutor.grading.attempt import make_variant
from tutor.grading.engine import grade, judge, plan
from tutor.grading.grade import Judgement
from tutor.grading.order import decide
from tutor.grading.packcheck import check_pack
from tutor.grading.variants import draw_params, render

PACKS = Path(__file__).parent / "packs"


@pytest.fixture(scope="module")
def fair() -> dict[str, Ref]:
    return refs("fair.yaml")


@pytest.fixture(scope="module")
def builtin() -> Catalog:
    return Catalog.load(builtin=True)


def lines_of(ref, seed: int = 0) -> list[str]:
    params = draw_params(ref.drill.params, seed)
    return [render(line, params) for line in ref.drill.lines]


def in_order(lines: list[str], numbers) -> str:
    return "\n".join(lines[n - 1] for n in numbers)


def right_orders(ref, sandbox=None, seed: int = 0) -> set[tuple[int, ...]]:
    """Every order of the drill's lines (numbers from 1) that grades correct."""
    lines, found = lines_of(ref, seed), set()
    for perm in itertools.permutations(range(1, len(lines) + 1)):
        answer = in_order(lines, perm)
        p = plan(ref, answer, seed)
        assert p.call is None or sandbox is not None
        g = judge(ref, p, answer, None) if p.call is None else grade(ref, answer, seed, sandbox)
        assert g.status in ("correct", "wrong"), g.feedback
        if g.correct:
            found.add(perm)
    return found


# ---------------------------------------------------------------- constraints (no sandbox)


def test_every_order_that_keeps_the_constraints_is_right(fair):
    assert right_orders(fair["training-step"]) == {
        (1, 2, 3, 4, 5), (2, 1, 3, 4, 5), (2, 3, 1, 4, 5), (2, 3, 4, 5, 1),  # the last: accept
    }  # fmt: skip
    assert right_orders(fair["export-steps"]) == {(1, 2, 3, 4), (1, 2, 4, 3)}


def test_a_broken_constraint_is_named_and_the_answer_is_not_given(fair):
    ref = fair["training-step"]
    lines = lines_of(ref)
    g = judge(ref, plan(ref, in_order(lines, (2, 3, 5, 4, 1)), 0), "", None)
    assert g.status == "wrong" and g.category == "order"
    assert g.feedback == (
        "`optimizer.step()` comes before `loss.backward()` in your order; it has to come after it."
    )
    assert "zero_grad" not in g.feedback  # one constraint, not the whole order


def test_a_constraints_why_is_its_feedback(fair):
    ref = fair["training-step"]
    answer = in_order(lines_of(ref), (2, 3, 4, 1, 5))
    g = judge(ref, plan(ref, answer, 0), answer, None)
    assert g.feedback == (
        "Clearing the gradients between `backward()` and `step()` throws away what the step reads."
    )


def test_the_earliest_line_placed_too_early_is_named(fair):
    ref = fair["training-step"]
    answer = in_order(lines_of(ref), (5, 4, 3, 2, 1))  # every constraint broken
    g = judge(ref, plan(ref, answer, 0), answer, None)
    assert g.feedback.startswith("`optimizer.step()` comes before")


@pytest.mark.parametrize(
    ("drill", "right"),
    [
        ("five-line-loop/five-lines", {(1, 2, 3, 4, 5), (2, 1, 3, 4, 5), (2, 3, 1, 4, 5),
                                       (2, 3, 4, 5, 1)}),
        ("graphs/capture-pipeline", {(1, 2, 3, 4, 5), (1, 2, 4, 3, 5)}),
        # the group before DDP and the sampler, the model before DDP, the sampler before its
        # loader and set_epoch, set_epoch, the loader and DDP before the loop, the loop last
        ("ranks-and-collectives/ddp-script-order", {
            p for p in itertools.permutations(range(1, 9))
            if all(p.index(a) < p.index(b) for a, b in
                   [(1, 3), (2, 3), (1, 4), (4, 5), (4, 6), (6, 7), (5, 7), (3, 7), (7, 8)])}),
        ("ranks-and-collectives/accumulate-order", {(1, 2, 3, 4, 5), (1, 3, 2, 4, 5),
                                                    (2, 3, 4, 5, 1), (3, 2, 4, 5, 1)}),
        ("graphs/fx-pass-steps", {(1, 2, 3, 4, 5, 6, 7), (1, 2, 3, 4, 6, 5, 7),
                                  (1, 2, 3, 4, 6, 7, 5)}),
        # chapter 9's loop: the baseline first, then the profile, then the change; the check
        # and the second timing in either order
        ("honest-clock/faster-loop", {(1, 2, 3, 4, 5, 6), (1, 2, 3, 5, 4, 6)}),
    ],
)  # fmt: skip
def test_built_in_drills_accept_every_valid_order(builtin, drill, right):
    assert right_orders(builtin.drill(drill)) == right


def test_profiling_before_the_baseline_is_refused_with_the_reason(builtin):
    ref = builtin.drill("honest-clock/faster-loop")
    g = judge(ref, plan(ref, in_order(lines_of(ref), (2, 1, 3, 4, 5, 6)), 0), "", None)
    assert g.status == "wrong" and g.feedback.startswith(
        "A profile taken first has no baseline to be read against."
    )


# ---------------------------------------------------------------- checked by running the order


def test_fsdp_setup_is_run_in_torch_xla_and_use_spmd_may_come_first(builtin, xla_sandbox):
    # use_spmd() starts no runtime: set after it, CPU_NUM_DEVICES still gives four devices
    ref = builtin.drill("tpu-practice/fsdp-setup-order")
    answer = in_order(lines_of(ref), (2, 1, 3, 4, 5, 6))
    assert plan(ref, answer, 0).call is not None  # the order is run, not only read
    g = grade(ref, answer, 0, xla_sandbox)
    assert g.correct, g.feedback
    late = in_order(lines_of(ref), (1, 2, 3, 4, 6, 5))  # the optimizer before FSDPv2
    g = grade(ref, late, 0, xla_sandbox)
    assert g.status == "wrong", g.feedback


def test_an_order_is_run_and_any_order_the_check_passes_is_right(fair, sandbox):
    ref = fair["grad-then-clear"]
    assert right_orders(ref, sandbox, seed=2) == {(1, 2, 3, 4, 5), (1, 2, 5, 3, 4), (1, 5, 2, 3, 4)}


def test_a_line_that_raises_in_the_learners_order_is_named(fair, sandbox):
    ref = fair["grad-then-clear"]
    answer = in_order(lines_of(ref), (1, 2, 3, 5, 4))
    g = grade(ref, answer, 0, sandbox)
    assert g.status == "wrong" and g.feedback == (
        "Run in your order, line 5 (`g = w.grad.clone()`) raises AttributeError: 'NoneType' "
        "object has no attribute 'clone'"
    )


def test_only_the_drills_own_lines_are_run(fair):
    ref = fair["grad-then-clear"]
    lines = lines_of(ref)
    typed = in_order(lines, (1, 5, 2, 3, 4)).replace("w.grad = None", "w.grad  =   None")
    p = plan(ref, "  \n" + typed + "\n\n", 0)
    assert p.call is not None and p.call.target == "tutor.probes.grade_order:run_order"
    assert p.call.kwargs["lines"] == lines  # the drill's text, never the answer's
    assert p.call.kwargs["order"] == [1, 5, 2, 3, 4]
    assert plan(ref, in_order(lines, (1, 2, 3, 4, 5)), 0).call is None  # `lines` is right


def test_the_probe_gives_the_check_line_order_and_lines(sandbox):
    result = sandbox.call(
        "tutor.probes.grade_order:run_order",
        timeout=10,
        setup="ran = []",
        lines=["ran.append(line)", "ran.append(line * 10)", "ran.append(line * 100)"],
        order=[3, 1, 2],
        check="assert ran == [300, 1, 20] and order == [3, 1, 2] and len(lines) == 3, ran\n"
        "assert line is None",
    )
    assert result.value == {"outcome": "passed"}


RECOMPILE_RIGHT = {
    (1, 2, 3, 4, 5), (1, 2, 3, 5, 4), (1, 3, 2, 4, 5), (1, 3, 2, 5, 4),
    (1, 3, 4, 2, 5), (1, 3, 4, 5, 2), (1, 3, 5, 2, 4), (1, 3, 5, 4, 2),
}  # fmt: skip


@pytest.mark.parametrize("numbers", sorted(RECOMPILE_RIGHT))
def test_recompile_sequence_accepts_every_order_that_compiles_as_labelled(
    builtin, sandbox, numbers
):
    ref = builtin.drill("guards/recompile-sequence")
    g = grade(ref, in_order(lines_of(ref), numbers), 0, sandbox)
    assert g.correct, g.feedback


@pytest.mark.parametrize(
    ("numbers", "says"),
    [
        ((2, 1, 3, 4, 5), "labelled `no compile: guards pass`, compiles: nothing was cached yet."),
        ((1, 2, 4, 3, 5), "labelled `no compile: k is dynamic now`, compiles: the guard `k == 2` "
         "failed."),
        ((3, 1, 2, 4, 5), "labelled `compiles: k == 2 fails, k becomes dynamic`, compiles, but "
         "because nothing was cached yet."),
        ((1, 5, 3, 2, 4), "`cf(torch.ones(5), 7)`, labelled `compiles: size 4 fails, the size "
         "becomes dynamic`, compiles, but because the guard `k == 2` failed."),
    ],
)  # fmt: skip
def test_recompile_sequence_says_what_torch_did_in_a_wrong_order(builtin, sandbox, numbers, says):
    ref = builtin.drill("guards/recompile-sequence")
    g = grade(ref, in_order(lines_of(ref), numbers), 0, sandbox)
    assert g.status == "wrong" and says in g.feedback, g.feedback


# ---------------------------------------------------------------- pack check


def line_of(file: Path, text: str, after: int = 0) -> int:
    lines = file.read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if n > after and text in line)


def test_pack_check_runs_an_order_drills_own_orders(sandbox):
    file = PACKS / "fair_broken.yaml"
    found = {(p.field, p.severity): p for p in check_pack(file, sandbox)}
    raised = found[("drills[3].lines[0]", "error")]
    assert "raises NameError" in raised.message and "`y = x + 1`" in raised.message
    assert (raised.line, raised.col) == (line_of(file, "- y = x + 1"), 9)
    failed = found[("drills[4].accept[0]", "error")]
    assert "fails the drill's own check" in failed.message and "x sums to 8.0" in failed.message
    start = line_of(file, "id: accepted-order-fails")
    assert failed.line == line_of(file, "- [x = torch.ones(2), x = x + 1", start)
    anything = found[("drills[5].run", "warning")]
    assert "passes the check too" in anything.message
    broken = found[("drills[6].run.assert", "error")]
    assert "NameError: name 'c'" in broken.message
    assert broken.line == line_of(file, "assert c == 3")


def test_the_fair_packs_orders_pass_pack_check(sandbox):
    assert check_pack(PACKS / "fair.yaml", sandbox) == []


def test_constraints_are_read_before_an_order_is_run():
    from tutor.content.loader import parse_pack

    pack, _ = parse_pack(
        "pack: p\ntitle: P\nchapter: 1\ndrills:\n"
        "  - id: o\n    kind: order\n    prompt: Order them.\n"
        "    lines: [a = 1, b = a + 1, c = b + 1]\n"
        "    constraints:\n      - [1, 2]\n"
        "    run:\n      assert: assert c == 3\n",
        "p.yaml",
    )
    ref = Ref("p/o", pack.drills[0])
    broken = plan(ref, "b = a + 1\na = 1\nc = b + 1", 0)
    assert broken.call is None and broken.decided is not None
    assert (
        broken.decided.feedback
        == "`b = a + 1` comes before `a = 1` in your order; it has to come after it."
    )
    kept = plan(ref, "a = 1\nc = b + 1\nb = a + 1", 0)
    assert kept.call is not None and kept.call.kwargs["order"] == [1, 3, 2]  # the run decides


def test_an_order_drill_never_opens_in_an_order_it_accepts(builtin):
    # graphs/capture-pipeline accepts two orders (its constraints leave two steps free); a
    # shuffle that lands on either would be marked right with no line moved.
    ref = builtin.drill("graphs/capture-pipeline")
    for seed in range(200):
        shown = make_variant(ref.full_id, ref.drill, seed).lines
        decided = decide(ref.drill, draw_params(ref.drill.params, seed), "\n".join(shown))
        assert not (isinstance(decided, Judgement) and decided.status == "correct"), seed
