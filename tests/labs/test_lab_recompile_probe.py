"""The recompilation probe on the xla runtime, through the real sandbox: changing batch sizes
compile a graph per new shape, padding to one size compiles once. Skips without the xla runtime.
"""

from __future__ import annotations

import pytest

from tutor.paths import PROJECT_ROOT
from tutor.probes.data_recompile import DEFAULT_SIZES, Recompile
from tutor.sandbox import Sandbox

XLA_PYTHON = PROJECT_ROOT / ".venv-xla" / "bin" / "python"
pytestmark = pytest.mark.skipif(not XLA_PYTHON.exists(), reason="no xla runtime (make xla-runtime)")


@pytest.fixture(scope="module")
def xla():
    with Sandbox(runtime=str(XLA_PYTHON)) as sandbox:
        yield sandbox


def run(sandbox: Sandbox, **kwargs) -> Recompile:
    result = sandbox.call(
        "tutor.probes.recompile:recompile", timeout=300.0, memory_mb=8192, **kwargs
    )
    assert result.ok, result.message
    return Recompile.model_validate(result.value)


def test_every_new_shape_compiles_and_repeats_hit_the_cache(xla):
    data = run(xla, sizes=DEFAULT_SIZES)
    assert data.distinct_shapes == len(set(DEFAULT_SIZES)) == 4
    compiles = [s.uncached_compiles for s in data.steps]
    assert compiles[-1] > compiles[0]
    seen: set[int] = set()
    for before, step in zip([0, *compiles], data.steps, strict=False):
        new = step.batch not in seen
        seen.add(step.batch)
        assert (step.uncached_compiles > before) == new, (step, before)


def test_padding_to_one_size_compiles_once(xla):
    data = run(xla, sizes=DEFAULT_SIZES, pad_to=32)
    assert data.distinct_shapes == 1 and all(s.shape == [32, 8] for s in data.steps)
    first = data.steps[0].uncached_compiles
    assert all(s.uncached_compiles == first for s in data.steps)
    assert data.steps[-1].cached_compiles >= len(DEFAULT_SIZES) - 1


def test_pad_to_smaller_than_a_batch_is_refused(xla):
    result = xla.call(
        "tutor.probes.recompile:recompile", timeout=60.0, memory_mb=8192, sizes=[8, 40], pad_to=32
    )
    assert result.status == "error" and "smaller than the largest batch (40)" in result.message
