"""The tape probe, run in-process with real torch: COURSE.md chapter 2's worked example A, the
real node names and execution order, finite differences, the rules, bad input, recordings."""

from __future__ import annotations

import pytest

from labs.harness import kept
from tutor.probes.tape import TapeInputError, tape

EXAMPLE_A = "x = torch.tensor([1., 2., 3.], requires_grad=True)\nz = (x**2 + 3*x).sum()"
MLP = (
    "w = torch.randn(3, 2, requires_grad=True)\n"
    "lin = nn.Linear(2, 1)\n"
    "y = torch.tanh(lin(w)) * w[:, :1]\n"
    "loss = y.mean()"
)

#: recording file -> the probe's arguments (deterministic: the probe seeds torch)
RECORDINGS = {"tape_example_a.json": {"code": EXAMPLE_A}, "tape_mlp.json": {"code": MLP}}


def test_worked_example_a():
    t = tape(EXAMPLE_A)
    assert t.output == "z" and t.value == 32.0
    assert t.leaves["x"].grad == [5.0, 7.0, 9.0]
    assert [n.name for n in t.nodes] == [
        "SumBackward0",
        "AddBackward0",
        "PowBackward0",
        "MulBackward0",
        "AccumulateGrad",
    ]
    acc = next(n for n in t.nodes if n.name == "AccumulateGrad")
    assert acc.leaf == "x" and acc.grad_in[0] is not None
    assert acc.grad_in[0].values == [5.0, 7.0, 9.0]  # both paths summed before it runs
    pow_node = next(n for n in t.nodes if n.name == "PowBackward0")
    assert pow_node.grad_out[0] is not None and pow_node.grad_out[0].values == [2.0, 4.0, 6.0]
    mul = next(n for n in t.nodes if n.name == "MulBackward0")
    assert mul.next == [acc.id, None] and mul.grad_out[1] is None


def test_order_is_what_autograd_ran():
    t = tape(EXAMPLE_A)
    assert t.order[0] == 0 and t.nodes[t.order[-1]].name == "AccumulateGrad"
    assert sorted(t.order) == [n.id for n in t.nodes]
    assert [s.node for s in t.steps] == t.order
    assert all(n.executed for n in t.nodes)
    # .grad only appears once AccumulateGrad has run
    assert [s.leaf_grads["x"] is None for s in t.steps] == [True, True, True, True, False]


def test_finite_differences_agree():
    t = tape(EXAMPLE_A)
    leaf = t.leaves["x"]
    assert leaf.fd_ok is True and leaf.fd_grad == pytest.approx([5, 7, 9], abs=1e-6)
    assert leaf.fd_max_error is not None and leaf.fd_max_error < 1e-6


def test_rules_retain_grad_second_backward_no_grad():
    t = tape("a = torch.tensor(2., requires_grad=True)\nb = a ** 2\nc = b * 3")
    assert t.value == 12.0 and t.leaves["a"].grad == 12.0
    assert t.without_retain == {"b": True, "c": True}
    assert t.intermediates["b"] is not None and t.intermediates["b"].values == 3.0
    assert t.second_backward is not None and not t.second_backward.ok
    assert "backward through the graph a second time" in (t.second_backward.error or "")
    retained = t.second_backward.retained["a"]
    assert retained is not None and retained.values == 24.0  # 12 + 12: gradients accumulate
    assert t.no_grad is not None and t.no_grad.requires_grad is False
    assert "does not require grad" in (t.no_grad.error or "")


def test_module_parameters_are_named_leaves():
    t = tape(MLP)
    assert set(t.leaves) == {"w", "lin.weight", "lin.bias"}
    assert t.leaves["w"].fd_ok is True
    assert t.leaves["lin.weight"].fd_ok is True and t.leaves["lin.bias"].fd_ok is True
    names = {n.name for n in t.nodes}
    assert {"MeanBackward0", "TanhBackward0", "AddmmBackward0", "AccumulateGrad"} <= names


def test_finite_differences_reach_a_sequentials_parameters():
    t = tape(
        "model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))\n"
        "x = torch.randn(5, 3)\n"
        "loss = model(x).pow(2).mean()"
    )
    assert set(t.leaves) == {"model.0.weight", "model.0.bias", "model.2.weight", "model.2.bias"}
    assert all(leaf.fd_ok is True for leaf in t.leaves.values())


def test_learners_own_backward_call_is_left_to_the_lab():
    t = tape(EXAMPLE_A + "\nz.backward()\nprint(x.grad)")
    assert t.leaves["x"].grad == [5.0, 7.0, 9.0]


@pytest.mark.parametrize(
    "code, says",
    [
        ("x = (", "syntax error on line 1"),
        ("x = torch.ones(3, requires_grad=True)\ny = x * 2", r"shape \(3,\).*scalar"),
        ("x = torch.ones(3)\ny = x.sum()", "does not require grad"),
        ("print(1)", "assign the scalar to a name"),
        ("x = 1", "not a tensor"),
        ("x = torch.ones(2, requires_grad=True)\ny = x.sum() / undefined", "NameError"),
    ],
)
def test_bad_input_says_why(code, says):
    with pytest.raises(TapeInputError, match=says):
        tape(code)


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_recordings_match_the_probe(name):
    """The widget snapshots draw these files; they must still be what the probe says."""
    current = tape(**RECORDINGS[name]).model_dump(mode="json")
    recorded = kept(name, current)
    # finite differences are numeric noise below 1e-6; everything else must match exactly
    for data in (recorded, current):
        for leaf in data["leaves"].values():
            leaf.pop("fd_max_error")
            leaf["fd_grad"] = leaf["fd_grad"] and [round(v, 4) for v in leaf["fd_grad"]]
    assert recorded == current
