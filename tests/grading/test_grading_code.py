"""Code and fix drills graded end to end against the reference, with real torch."""

from __future__ import annotations

from tests.grading.conftest import Ref, unread
from tutor.content.models import CodeDrill
from tutor.grading.codecheck import trials
from tutor.grading.engine import grade, plan

DIFFERENT_BUT_RIGHT = """
def outer(x, y):
    return (x.unsqueeze(1) @ y.unsqueeze(0)).contiguous()
"""


def test_right_answer_that_differs_from_the_reference(basics, sandbox):
    g = grade(basics["outer"], DIFFERENT_BUT_RIGHT, 4, sandbox)
    assert g.correct and g.status == "correct", g.feedback
    assert "20 random inputs" in g.feedback


def test_forbidden_loop_inside_a_comprehension(basics, sandbox):
    code = "def outer(a, b):\n    return torch.stack([x * b for x in a])\n"
    assert plan(basics["outer"], code, 4).call is None  # refused before running
    g = grade(basics["outer"], code, 4, sandbox)
    assert g.status == "wrong" and g.category == "forbidden_loop"
    assert g.forbidden == ["for"] and "line 2" in g.feedback


def test_forbidden_function_through_an_alias(basics, sandbox):
    code = "from torch import outer as o\n\ndef outer(a, b):\n    return o(a, b)\n"
    g = grade(basics["outer"], code, 4, sandbox)
    assert not g.correct and g.forbidden == ["torch.outer"]


def test_the_method_of_a_forbidden_function_is_refused_by_reading(basics, sandbox):
    code = "def outer(a, b):\n    return a.outer(b)\n"
    assert plan(basics["outer"], code, 4).call is None
    g = grade(basics["outer"], code, 4, sandbox)
    assert not g.correct and g.category == "forbidden" and g.forbidden == ["torch.outer"]
    assert "line 2: `a.outer`" in g.feedback


def test_forbidden_function_reached_at_run_time_is_traced(basics, sandbox):
    # torch.functional.einsum is torch.einsum: only a reading that knows torch can tell, and the
    # trace of what ran is the net below it
    code = "def outer(a, b):\n    return torch.functional.einsum('i,j->ij', a, b)\n"
    g = grade(basics["outer"], code, 4, sandbox)
    assert not g.correct and g.category == "forbidden" and "torch.einsum" in g.feedback


def test_names_computed_at_run_time_are_refused_before_running(basics, sandbox):
    for code in (
        "name = 'out' + 'er'\ndef outer(a, b):\n    return getattr(a, name)(b)\n",
        "def outer(a, b):\n    return vars(torch)['ein' + 'sum']('i,j->ij', a, b)\n",
    ):
        assert plan(basics["outer"], code, 4).call is None
        g = grade(basics["outer"], code, 4, sandbox)
        assert not g.correct and g.category == "forbidden", g
        assert "computed at run time" in g.feedback


def test_broadcasting_loophole_is_closed(basics, sandbox):
    # same values as the reference, but an extra leading dim: would pass a broadcasting compare
    code = "def outer(a, b):\n    return (a[:, None] * b[None, :])[None]\n"
    g = grade(basics["outer"], code, 4, sandbox)
    assert not g.correct and g.category == "broadcasting" and "shape" in g.feedback


def test_wrong_dtype_is_named(basics, sandbox):
    code = "def outer(a, b):\n    return (a[:, None] * b[None, :]).double()\n"
    g = grade(basics["outer"], code, 4, sandbox)
    assert g.category == "dtype_promotion" and "float64" in g.feedback


def test_smallest_failing_input_is_reported(basics, sandbox):
    ref = basics["outer"]
    code = "def outer(a, b):\n    return a * b\n"  # never the right shape: fails every trial
    g = grade(ref, code, 4, sandbox)
    assert not g.correct and "Failed 20 of 20" in g.feedback
    specs = trials(ref.drill, {}, 4)
    sizes = [
        (s["args"]["a"]["tensor"][0] + s["args"]["b"]["tensor"][0], i) for i, s in enumerate(specs)
    ]
    smallest = specs[min(sizes)[1]]["args"]
    n, m = smallest["a"]["tensor"][0], smallest["b"]["tensor"][0]
    assert f"smallest failing input is a: shape ({n},)" in g.feedback
    assert f"b: shape ({m},)" in g.feedback


def test_first_wrong_element_with_its_index(sandbox):
    drill = CodeDrill(
        kind="code",
        id="double",
        prompt="double it",
        starter="def double(x):\n    ...\n",
        reference="def double(x):\n    return x * 2\n",
        check={"call": "double", "args": {"x": {"tensor": [3, 4]}}, "trials": 3},
    )
    code = "def double(x):\n    y = x * 2\n    y[1, 2] = 0\n    return y\n"
    g = grade(Ref("t/double", drill), code, 1, sandbox)
    assert g.category == "values" and "index [1, 2]" in g.feedback


def test_exception_in_the_learners_function(basics, sandbox):
    code = "def outer(a, b):\n    return torch.mm(a, b)\n"
    g = grade(basics["outer"], code, 4, sandbox)
    assert g.status == "wrong" and g.category == "raised"
    assert "raised RuntimeError at line 2" in g.feedback and g.hint


def test_malformed_code_is_invalid(basics, sandbox):
    g = grade(basics["outer"], "def outer(a, b)\n    return a\n", 4, sandbox)
    assert g.status == "invalid" and "syntax error on line 1" in g.feedback


def test_missing_function(basics, sandbox):
    g = grade(basics["outer"], "def other(a, b):\n    return a\n", 4, sandbox)
    assert g.status == "wrong" and "outer" in g.feedback


def test_starter_and_wrong_answers_fail(basics, sandbox):
    ref = basics["outer"]
    assert not grade(ref, ref.drill.starter, 2, sandbox).correct
    for wrong in ref.drill.wrong:
        assert not grade(ref, wrong, 2, sandbox).correct


def test_assert_check(basics, sandbox):
    ref = basics["row-norm"]
    assert grade(ref, ref.drill.reference, 1, sandbox).correct
    g = grade(ref, ref.drill.wrong[0], 1, sandbox)
    assert g.status == "wrong" and "rows do not sum to 1" in g.feedback


def test_fix_drill(basics, sandbox):
    ref = basics["fix-zero-grad"]
    assert grade(ref, ref.drill.reference, 0, sandbox).correct
    g = grade(ref, ref.drill.starter, 0, sandbox)
    assert g.status == "wrong" and "final loss" in g.feedback
    g = grade(ref, ref.drill.reference.replace("range(200):", "range(200)"), 0, sandbox)
    assert g.status == "invalid" and "syntax error" in g.feedback


def test_infinite_loop_times_out(basics, sandbox):
    g = grade(basics["row-norm"], "def normalize(x):\n    while True:\n        pass\n", 0, sandbox)
    assert g.status == "timeout" and not g.correct


def test_a_reference_that_fails_is_an_authoring_error(sandbox):
    drill = CodeDrill(
        kind="code",
        id="bad",
        prompt="p",
        starter="def f(x):\n    ...\n",
        reference="def f(x):\n    return x.doubled()\n",
        check={"call": "f", "args": {"x": {"tensor": [2]}}},
    )
    g = grade(Ref("t/bad", drill), "def f(x):\n    return x * 2\n", 0, sandbox)
    assert g.status == "authoring" and "reference" in g.feedback and not g.correct


def test_trials_are_deterministic_per_seed(basics, sandbox):
    code = "def outer(a, b):\n    return a * b\n"
    first = grade(basics["outer"], code, 9, sandbox)
    again = grade(basics["outer"], code, 9, sandbox)
    assert first.feedback == again.feedback


def test_patching_torch_comparisons_does_not_fool_the_check(basics, sandbox):
    code = (
        "torch.isclose = lambda *a, **k: torch.ones((), dtype=torch.bool)\n"
        "torch.allclose = lambda *a, **k: True\n"
        "torch.equal = lambda *a, **k: True\n"
        "def outer(a, b):\n"
        "    return torch.zeros(a.shape[0], b.shape[0])\n"
    )
    g = grade(basics["outer"], code, 4, sandbox)
    assert not g.correct and g.category == "tampered" and "line 1: `torch.isclose`" in g.feedback
    # and the judge, which never believes the learner's torch, is not fooled either
    g = unread(basics["outer"], code, 4, sandbox)
    assert not g.correct and g.category == "values"


def test_requires_grad_difference_is_named(sandbox):
    drill = CodeDrill(
        kind="code", id="sq", prompt="p", starter="def f(x):\n    ...\n",
        reference="def f(x):\n    return (x ** 2).sum()\n",
        check={"call": "f", "args": {"x": {"tensor": [3], "requires_grad": True}}, "trials": 4},
    )  # fmt: skip
    ref = Ref("t/sq", drill)
    assert grade(ref, "def f(x):\n    return x.pow(2).sum()\n", 0, sandbox).correct
    g = grade(ref, "def f(x):\n    return (x ** 2).sum().detach()\n", 0, sandbox)
    assert g.category == "requires_grad" and "grad" in g.feedback


def test_integer_inputs_and_literal_args(sandbox):
    drill = CodeDrill(
        kind="code",
        id="clip",
        prompt="p",
        starter="def f(x, k):\n    ...\n",
        reference="def f(x, k):\n    return x.clamp(min=-k, max=k)\n",
        check={
            "call": "f",
            "args": {"x": {"tensor": ["n"], "dtype": "int64"}, "k": {"value": "{k}"}},
            "params": {"n": {"int": [1, 8]}, "k": {"int": [1, 4]}},
        },
    )
    ref = Ref("t/clip", drill)
    assert grade(
        ref,
        "def f(x, k):\n    return torch.minimum(torch.maximum(x, -x.new_tensor(k)), x.new_tensor(k))\n",
        0,
        sandbox,
    ).correct
    g = grade(ref, "def f(x, k):\n    return x.clamp(-k, k).float()\n", 0, sandbox)
    assert g.category == "dtype_promotion" and "int64" in g.feedback


def test_device_difference_is_named(basics, sandbox):
    code = "def outer(a, b):\n    return torch.empty(a.shape[0], b.shape[0], device='meta')\n"
    g = grade(basics["outer"], code, 3, sandbox)
    assert g.category == "device_mismatch" and "Device is meta, expected cpu" in g.feedback
    assert "same device" in g.hint


def test_exit_inside_the_function_is_a_wrong_answer(basics, sandbox):
    g = grade(basics["outer"], "def outer(a, b):\n    raise SystemExit(3)\n", 3, sandbox)
    assert g.status == "wrong" and "SystemExit" in g.feedback


_KEEP = """
def grad_at(x):
    leaf = x.detach().clone().requires_grad_(True)
    (leaf.sin() * leaf).sum().backward()
    return leaf.grad
"""


def _keep_inputs_drill(unchanged: bool) -> Ref:
    drill = CodeDrill.model_validate(
        {
            "id": "keep",
            "kind": "code",
            "prompt": "Return the gradient of (x.sin() * x).sum(); do not change x.",
            "starter": "def grad_at(x):\n    ...\n",
            "reference": _KEEP,
            "check": {
                "call": "grad_at",
                "args": {"x": {"tensor": ["n"]}},
                "params": {"n": {"int": [1, 4]}},
                "trials": 4,
                "inputs_unchanged": unchanged,
            },
        }
    )
    return Ref("t/keep", drill)


def test_inputs_unchanged_fails_an_answer_that_changes_its_input(sandbox):
    ref = _keep_inputs_drill(True)
    assert grade(ref, _KEEP, 1, sandbox).correct
    grabs = "def grad_at(x):\n    x.requires_grad_(True)\n    (x.sin() * x).sum().backward()\n    return x.grad\n"  # noqa: E501
    g = grade(ref, grabs, 1, sandbox)
    assert g.status == "wrong" and g.category == "input_changed", g.feedback
    assert "changed its input `x`: it now requires grad" in g.feedback
    writes = _KEEP.replace("    return leaf.grad", "    x.mul_(2)\n    return leaf.grad")
    g = grade(ref, writes, 1, sandbox)
    assert g.category == "input_changed" and "values of its input `x`" in g.feedback
    # restoring requires_grad still leaves a .grad behind
    restores = grabs.replace(
        "    return x.grad", "    g = x.grad\n    x.requires_grad_(False)\n    return g"
    )
    g = grade(ref, restores, 1, sandbox)
    assert g.category == "input_changed" and "holds a `.grad`" in g.feedback


def test_without_the_key_a_changed_input_is_not_judged(sandbox):
    writes = _KEEP.replace("    return leaf.grad", "    x.mul_(2)\n    return leaf.grad")
    assert grade(_keep_inputs_drill(False), writes, 1, sandbox).correct
