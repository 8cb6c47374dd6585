"""The guards probe, run in-process with real torch: COURSE.md chapter 6's graphs, breaks with
their lines, guards, recompiles with their reasons, the ops of each graph, bad input, recordings."""

from __future__ import annotations

import pytest

from labs.harness import kept
from tutor.probes.guards import GuardsInputError, guards

BREAKS = (
    "def f(x, k):\n"
    "    y = x.sin() * k\n"
    '    print("step")\n'
    "    return y.cos()\n\n"
    "calls = [(torch.randn(4), 2), (torch.randn(4), 3), (torch.randn(5), 3)]"
)
CLEAN = (
    "def f(x):\n"
    "    return torch.where(x.sum() > 0, torch.relu(x), x - 1)\n\n"
    "calls = [(torch.randn(5),), (torch.randn(5),), (torch.randn(5, dtype=torch.float64),)]"
)

#: recording file -> the probe's arguments (deterministic: the probe seeds torch)
RECORDINGS = {"guards_breaks.json": {"code": BREAKS}, "guards_clean.json": {"code": CLEAN}}


def test_breaks_recompiles_guards_and_ops():
    r = guards(BREAKS)
    assert r.graphs == 2
    assert [(b.line, b.reason) for b in r.graph_breaks] == [(3, "Failed to trace builtin operator")]
    assert r.ops == [["sin", "mul"], ["cos"]]
    assert "EQUALS_MATCH: L['k'] == 2" in r.guards
    tensor = next(g for g in r.guards if g.startswith("TENSOR_MATCH"))
    assert "torch.float32" in tensor and "size=[4]" in tensor and "DispatchKeySet" not in tensor
    assert [(c.call, c.reason) for c in r.recompiles][:2] == [
        (1, "k == 2"),
        (2, "tensor 'x' size mismatch at index 0. expected 4, actual 5"),
    ]


def test_one_graph_and_a_dtype_recompile():
    r = guards(CLEAN)
    assert r.graphs == 1 and r.graph_breaks == []
    assert r.ops == [["sum", "gt", "relu", "sub", "where"]]
    assert [(c.call, c.reason) for c in r.recompiles] == [
        (2, "tensor 'x' dtype mismatch. expected Float, actual Double")
    ]
    assert r.compiles == 2


def test_aot_eager_backend_counts_the_same():
    r = guards(BREAKS, backend="aot_eager")
    assert r.graphs == 2 and r.backend == "aot_eager" and r.recompiles


@pytest.mark.parametrize(
    ("code", "backend", "says"),
    [
        ("def f(", "eager", "syntax error on line 1"),
        ("calls = [(1,)]", "eager", "define `f`"),
        ("def f(x): return x", "eager", "define `calls`"),
        ("def f(x): return x.sin()\ncalls = [(torch.ones(2),)]", "tvm", "unknown backend"),
        ("def f(x): return x @ x\ncalls = [(torch.ones(2, 3),)]", "eager", "the first call failed"),
    ],
)
def test_bad_input_says_why(code, backend, says):
    with pytest.raises(GuardsInputError) as err:
        guards(code, backend=backend)
    assert says in str(err.value)


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_recordings_match_the_probe(name):
    """The widget snapshots draw these files; they must still be what the probe says."""
    current = guards(**RECORDINGS[name]).model_dump(mode="json")
    assert kept(name, current) == current
