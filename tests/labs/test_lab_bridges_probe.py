"""The two-bridge ledger's probe, run in the real sandbox on the xla runtime (torch 2.9.0,
torch_xla 2.9.0, torchax, jax; PJRT on the CPU): outputs compared with eager, compile counts,
and what torch_xla's StableHLO export does with a full ``x.sum()``. On the cpu runtime the probe
says how to get the xla runtime. The xla tests skip where `make xla-runtime` was not run."""

from __future__ import annotations

import json

import pytest

from tutor.paths import PROJECT_ROOT
from tutor.probes.data_bridges import DEFAULT_CODE, SUM_CODE, Bridges
from tutor.sandbox import Sandbox

DATA = PROJECT_ROOT / "tests" / "labs" / "data"


@pytest.fixture
def xla(xla_sandbox):
    """The session's started sandbox on the xla runtime (skips where it is not built)."""
    return xla_sandbox


def ledger(sandbox: Sandbox, code: str) -> Bridges:
    result = sandbox.call("tutor.probes.bridges:bridges", timeout=300.0, memory_mb=8192, code=code)
    assert result.ok, result.message
    return Bridges.model_validate(result.value)


def test_the_mlp_crosses_both_bridges_unchanged(xla):
    data = ledger(xla, DEFAULT_CODE)
    assert len(data.eager.output) == 2 and len(data.eager.output[0]) == 2
    assert data.xla.matches_eager and data.xla.export_matches_eager and data.torchax.matches_eager
    assert data.xla.compiles == 1
    assert data.xla.ir.startswith("IR {") and "xla::device_data()" in data.xla.ir
    assert "stablehlo.dot_general" in data.torchax.stablehlo
    assert "func.func" in data.xla.stablehlo and "tensor<2x3xf32>" in data.xla.stablehlo


def test_the_export_drops_a_full_sum(xla):
    """torch_xla 2.9.0 exports `x.sum()` over every dimension as a function that returns x."""
    data = ledger(xla, SUM_CODE)
    assert data.eager.output == 15.0
    assert data.xla.output == 15.0 and data.xla.matches_eager
    assert "aten::sum" in data.xla.ir
    assert data.xla.export_matches_eager is False
    assert "-> tensor<2x3xf32>" in data.xla.stablehlo and "reduce" not in data.xla.stablehlo
    assert data.torchax.output == 15.0 and data.torchax.matches_eager
    assert "stablehlo.reduce" in data.torchax.stablehlo


def test_a_sum_over_one_dimension_survives_the_export(xla):
    code = SUM_CODE.replace(".sum()", ".sum(dim=1)")
    data = ledger(xla, code)
    assert data.eager.output == [3.0, 12.0] and data.xla.export_matches_eager is True
    assert "stablehlo.reduce" in data.xla.stablehlo


def test_recordings_are_what_the_probe_says(xla):
    """The snapshots draw these; outputs, verdicts and texts must still be torch's."""
    for name, code in (("bridges_mlp.json", DEFAULT_CODE), ("bridges_sum.json", SUM_CODE)):
        kept = json.loads((DATA / name).read_text())
        assert ledger(xla, code).model_dump(mode="json") == kept, name


def test_bad_code_says_what_is_missing(xla):
    result = xla.call(
        "tutor.probes.bridges:bridges", timeout=300.0, memory_mb=8192, code="args = ()"
    )
    assert result.status == "error" and "must define `model`" in result.message


def test_on_the_cpu_runtime_the_probe_says_how_to_get_xla():
    with Sandbox() as sandbox:
        result = sandbox.call("tutor.probes.bridges:bridges", timeout=60.0, code=DEFAULT_CODE)
    assert result.status == "error" and "make xla-runtime" in result.message
