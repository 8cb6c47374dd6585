"""The graph probe, run in-process with real torch: COURSE.md chapter 7's export graph, its
signature, `linear` -> `permute` + `addmm` after decomposition, bad input, recordings."""

from __future__ import annotations

import pytest

from labs.harness import kept
from tutor.probes.graph import GraphInputError, graph

MLP = (
    "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\n"
    "args = (torch.randn(3, 4),)"
)
BN = (
    "model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2)).eval()\n"
    "args = (torch.randn(3, 4),)"
)

#: recording file -> the probe's arguments (deterministic: the probe seeds torch)
RECORDINGS = {"graph_mlp.json": {"code": MLP}, "graph_batchnorm.json": {"code": BN}}


def test_mlp_graph_signature_and_decomposition():
    g = graph(MLP)
    assert g.ops == {"aten.linear.default": 2, "aten.relu.default": 1}
    assert g.decomposed_ops == {
        "aten.permute.default": 2,
        "aten.addmm.default": 2,
        "aten.relu.default": 1,
    }
    assert g.signature.parameters == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert g.signature.buffers == [] and g.signature.user_inputs == ["input"]
    assert [n.op for n in g.nodes] == ["placeholder"] * 5 + ["call_function"] * 3 + ["output"]
    assert [n.target for n in g.nodes if n.op == "call_function"] == [
        "aten.linear.default",
        "aten.relu.default",
        "aten.linear.default",
    ]
    assert [g.role(n.name) for n in g.nodes[:5]] == ["parameter"] * 4 + ["input"]
    diff = {c.target: (c.before, c.after) for c in g.diff()}
    assert diff["aten.linear.default"] == (2, 0) and diff["aten.addmm.default"] == (0, 2)


def test_buffers_are_lifted_like_parameters():
    g = graph(BN)
    assert g.signature.buffers == ["1.running_mean", "1.running_var", "1.num_batches_tracked"]
    roles = [g.role(n.name) for n in g.nodes if n.op == "placeholder"]
    assert roles.count("buffer") == 3 and roles.count("parameter") == 6
    assert "aten._native_batch_norm_legit_no_training.default" in g.decomposed_ops


def test_linear_without_bias_is_mm_and_a_single_tensor_is_accepted():
    g = graph("model = nn.Linear(3, 2, bias=False)\nargs = torch.randn(5, 3)")
    assert g.decomposed_ops == {"aten.permute.default": 1, "aten.mm.default": 1}
    assert g.signature.parameters == ["weight"]


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("model = (", "syntax error on line 1"),
        ("args = (torch.randn(2),)", "define `model`"),
        ("model = nn.Linear(2, 2)", "define `args`"),
        (
            "class M(nn.Module):\n    def forward(self, x):\n        if x.sum() > 0:\n"
            "            return x\n        return -x\nmodel = M()\nargs = (torch.randn(3),)",
            "torch.export failed: GuardOnDataDependentSymNode",
        ),
        ("model = nn.Linear(4, 2)\nargs = (torch.randn(3, 5),)", "torch.export failed"),
    ],
)
def test_bad_input_says_why(code, says):
    with pytest.raises(GraphInputError) as err:
        graph(code)
    assert says in str(err.value)


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_recordings_match_the_probe(name):
    """The widget snapshots draw these files; they must still be what the probe says."""
    current = graph(**RECORDINGS[name]).model_dump(mode="json")
    assert kept(name, current) == current
