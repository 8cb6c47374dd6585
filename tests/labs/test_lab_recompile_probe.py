"""The recompilation probe on the xla runtime, through the real sandbox: changing batch sizes
compile a graph per new shape, padding to one size compiles once and leaves every loss as it
was. On the cpu runtime the probe says how to get the xla runtime. The xla tests skip where
`make xla-runtime` was not run (and fail under TUTOR_REQUIRE_XLA=1)."""

from __future__ import annotations

import json

import pytest

from labs.harness import DATA
from tutor.probes.data_recompile import DEFAULT_SIZES, Recompile
from tutor.sandbox import Sandbox

PROBE = "tutor.probes.recompile:recompile"


def run(sandbox: Sandbox, **kwargs) -> Recompile:
    result = sandbox.call(PROBE, timeout=300.0, memory_mb=8192, **kwargs)
    assert result.ok, result.message
    return Recompile.model_validate(result.value)


def test_every_new_shape_compiles_and_repeats_hit_the_cache(xla_sandbox):
    data = run(xla_sandbox, sizes=DEFAULT_SIZES)
    assert data.distinct_shapes == len(set(DEFAULT_SIZES)) == 4
    compiles = [s.uncached_compiles for s in data.steps]
    assert compiles[-1] == 4 and data.steps[-1].cached_compiles == len(DEFAULT_SIZES) - 4
    seen: set[int] = set()
    for before, step in zip([0, *compiles], data.steps, strict=False):
        new = step.batch not in seen
        seen.add(step.batch)
        assert (step.uncached_compiles > before) == new, (step, before)
        assert step.shape == [step.batch, 8]


def test_padding_to_one_size_compiles_once_and_keeps_the_losses(xla_sandbox):
    plain = run(xla_sandbox, sizes=DEFAULT_SIZES)
    data = run(xla_sandbox, sizes=DEFAULT_SIZES, pad_to=32)
    assert data.distinct_shapes == 1 and all(s.shape == [32, 8] for s in data.steps)
    assert all(s.uncached_compiles == 1 for s in data.steps)
    assert data.steps[-1].cached_compiles == len(DEFAULT_SIZES) - 1
    for a, b in zip(plain.steps, data.steps, strict=True):
        assert b.loss == pytest.approx(a.loss, rel=1e-5), (a, b)


def test_a_one_row_batch_padded_shares_the_one_graph(xla_sandbox):
    """The mean divides by the count of real rows as a tensor: a Python ``n`` would bake the
    special constant 1 into a one-row batch's graph and compile a second graph."""
    data = run(xla_sandbox, sizes=[2, 1, 4, 1], pad_to=4)
    assert [s.uncached_compiles for s in data.steps] == [1, 1, 1, 1]


def test_pad_to_smaller_than_a_batch_is_refused(xla_sandbox):
    result = xla_sandbox.call(PROBE, timeout=60.0, memory_mb=8192, sizes=[8, 40], pad_to=32)
    assert result.status == "error" and "smaller than the largest batch (40)" in result.message


def test_recordings_are_what_the_probe_says(xla_sandbox):
    """The snapshots draw these; every counter and loss must still be torch_xla's."""
    for name, kwargs in RECORDED.items():
        kept = json.loads((DATA / name).read_text())
        assert run(xla_sandbox, **kwargs).model_dump(mode="json") == kept, name


#: the recordings the snapshot tests draw, and the call that makes each
RECORDED = {
    "recompile_plain.json": {"sizes": [3, 5, 7, 5, 3, 8]},
    "recompile_padded.json": {"sizes": [3, 5, 7, 5, 3, 8], "pad_to": 8},
}


def test_on_the_cpu_runtime_the_probe_says_how_to_get_xla():
    with Sandbox() as sandbox:
        result = sandbox.call(PROBE, timeout=60.0, memory_mb=2048, sizes=[3, 5])
    assert result.status == "error"
    assert "needs torch_xla" in result.message and "make xla-runtime" in result.message
