"""The dispatch race's data: the two contestants' code and what timing them measured
(torch-free; the probe ``tutor.probes.race`` runs exactly the code strings defined here)."""

from __future__ import annotations

from pydantic import BaseModel

from tutor.probes import lab_defaults as defaults


class RaceOp(BaseModel):
    """One race: shared setup, a per-sample Python loop, and the same work as one batched op."""

    title: str
    setup: str
    """Runs once with ``n`` and ``dim`` bound; creates ``x`` (and whatever else the race uses)."""
    loop: str
    batched: str


#: op name -> the race (every statement ends by binding ``out``)
OPS: dict[str, RaceOp] = {
    "linear": RaceOp(
        title="a batch of N vectors through nn.Linear(dim, dim)",
        setup="lin = nn.Linear(dim, dim)\nx = torch.randn(n, dim)",
        loop="out = torch.stack([lin(x[i]) for i in range(n)])",
        batched="out = lin(x)",
    ),
    "normalize": RaceOp(
        title="N rows scaled to unit length",
        setup="x = torch.randn(n, dim)",
        loop="out = torch.stack([x[i] / x[i].norm() for i in range(n)])",
        batched="out = x / x.norm(dim=1, keepdim=True)",
    ),
    "dot": RaceOp(
        title="N dot products of paired vectors",
        setup="x = torch.randn(n, dim)\ny = torch.randn(n, dim)",
        loop="out = torch.stack([torch.dot(x[i], y[i]) for i in range(n)])",
        batched="out = (x * y).sum(dim=1)",
    ),
}

#: the largest batch the lab accepts
MAX_N = defaults.RACE_MAX_N


class Side(BaseModel):
    """One contestant: its code, its timing statistics, and how many ops it dispatched."""

    code: str
    median_s: float
    """Median seconds per run of the statement (warm-up excluded)."""
    iqr_s: float
    """Interquartile range of the per-run times."""
    measurements: int
    """How many timed blocks the median is over."""
    runs_per_measurement: int
    python_calls: int
    """Calls from Python into torch (``__torch_function__`` trips) in one run."""
    aten_ops: int
    """ATen operators the dispatcher ran in one run."""


class Race(BaseModel):
    """The result of one race."""

    op: str
    title: str
    n: int
    dim: int
    setup: str
    loop: Side
    batched: Side
    ratio: float
    """loop median / batched median."""
    match: bool
    """Whether both gave the same tensor (``torch.allclose``)."""
    max_abs_diff: float
    shape: list[int]
    threads: int
    torch_version: str
