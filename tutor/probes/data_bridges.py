"""The two-bridge ledger's data (torch-free; filled by ``tutor.probes.bridges`` on the xla runtime).

The same model crosses to XLA four ways: eager torch (the reference), torch_xla's lazy tensors,
torch_xla's StableHLO export, and torchax (torch ops run by JAX). Every output is compared with
eager's before any IR is shown.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tutor.probes import lab_defaults as defaults

#: the model the lab starts with: CODE defines ``model``, ``args`` and optionally ``forward``
DEFAULT_CODE = defaults.BRIDGES_CODE

#: the model that shows why outputs are compared first: a full reduction
SUM_CODE = """\
model = nn.Identity()
args = (torch.arange(6, dtype=torch.float32).reshape(2, 3),)


def forward(model, x):
    return model(x).sum()
"""


class EagerSide(BaseModel):
    """Plain torch on the CPU: the reference answer."""

    output: Any
    """The output tensor as nested lists."""


class XlaSide(BaseModel):
    """torch_xla: lazy tensors on the XLA device, and the StableHLO export."""

    output: Any
    """The output of lazy-tensor execution (after ``torch_xla.sync()``), as nested lists."""
    matches_eager: bool
    compiles: int
    """XLA compilations the lazy run caused (torch_xla's ``UncachedCompile`` counter)."""
    ir: str
    """The lazy IR recorded for the output before the sync."""
    stablehlo: str
    """StableHLO text of ``torch_xla.stablehlo.exported_program_to_stablehlo`` on the export."""
    export_matches_eager: bool | None
    """Whether running that export gives eager's answer; None where it could not be run."""


class TorchaxSide(BaseModel):
    """torchax: the model as a pure JAX function (``extract_jax``) under ``jax.jit``."""

    output: Any
    matches_eager: bool
    stablehlo: str
    """StableHLO text of ``jax.jit(fn).lower(...)``."""


class Bridges(BaseModel):
    """Everything the two-bridge ledger shows."""

    eager: EagerSide
    xla: XlaSide
    torchax: TorchaxSide
