"""The facts chapter 10's drills teach about the names and paths around torch_xla, each given by
the xla runtime now: `xm.mark_step` is `torch_xla.sync` under its old name, dynamo's openxla
backend calls its compiled program without tracing again while `torch_xla.compile` traces every
call, `max_different_graphs` turns one graph too many into an error, `MpDeviceLoader` syncs once
per batch, the persistent cache writes one file per compiled program, `PT_XLA_DEBUG_LEVEL` 1
reports compiles and 2 also runs, and `jax.grad` of a torch loss through `jax_view` is torch's
gradient."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.xdist_group("course")

PACK = "10-bridges.yaml"

# (drill, params, what the xla runtime must say)
CASES = [
    ("mark-step-alias", {"n": 5}, "(1, 4)"),
    ("dynamo-or-lazy", {"sizes": "4, 6, 4, 6", "wrap": 'torch.compile(f, backend="openxla")'}, "(2, 0)"),
    ("dynamo-or-lazy", {"sizes": "4, 6, 4, 6", "wrap": "torch_xla.compile(f)"}, "(2, 2)"),
    ("graph-limit", {"m": 2, "sizes": "4, 6, 4"}, "2"),
    ("loader-runs-graphs", {"n": 10, "b": 4}, "3"),
    ("persistent-cache-files", {"sizes": "8, 3, 8, 3, 5"}, "3"),
    ("jax-grad-of-torch", {"r": 3, "a": 2.0, "c": 1.0}, "[-4.0, -4.0]"),
    ("debug-level-reports", {"level": 1, "line": "v = loss.item()"}, "(2, 0)"),
    ("debug-level-reports", {"level": 2, "line": "v = loss.item()"}, "(2, 2)"),
    ("debug-level-reports", {"level": 2, "line": "s = loss.shape"}, "(1, 1)"),
]  # fmt: skip


@pytest.mark.parametrize(("drill_id", "params", "want"), CASES, ids=[c[0] for c in CASES])
def test_drill_truth_is_the_fact(course, xla_sandbox, drill_id, params, want):
    drill = course.drill(PACK, drill_id)
    limits = {"timeout": 180.0, "memory_mb": 4096, "profile": "compile"}
    assert course.truth(drill, params, sandbox=xla_sandbox, **limits) == want


def test_one_graph_too_many_is_an_error(course, xla_sandbox):
    drill = course.drill(PACK, "graph-limit")
    limits = {"timeout": 180.0, "memory_mb": 4096, "profile": "compile"}
    result = course.ask(drill, {"m": 1, "sizes": "4, 6, 4"}, sandbox=xla_sandbox, **limits)
    assert not result.ok, result.stdout
    said = repr(result.exception)
    assert "RuntimeError" in said and "Maximum number of different graphs" in said, said
