"""The autograd tape's data: the graph one forward run built and how backward walked it
(torch-free; filled by ``tutor.probes.tape``, drawn by the tape widgets and ``tutor lab tape``).

Naming: a node's ``grad_in`` is the gradient *arriving* at it (torch calls these the node's
``grad_outputs``: the gradient with respect to what the node produced) and ``grad_out`` is what
*leaves* it, one entry per ``next`` edge (torch's ``grad_inputs``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class TensorVal(BaseModel):
    """A small tensor as data: its shape and values (a nested list, or a flat head if elided)."""

    shape: list[int]
    values: Any
    elided: bool = False

    def text(self, width: int = 40) -> str:
        """A one-line rendering, cut to ``width`` characters."""
        body = fmt(self.values) + (" …" if self.elided else "")
        return body if len(body) <= width else body[: width - 1] + "…"


def fmt(values: Any) -> str:
    """Nested lists of numbers as compact text: ``[5, 7, 9]``."""
    if isinstance(values, list):
        return "[" + ", ".join(fmt(v) for v in values) + "]"
    if isinstance(values, float):
        return f"{values:.4g}"
    return str(values)


class TapeNode(BaseModel):
    """One node of the backward graph."""

    id: int
    name: str
    """Its real class name: PowBackward0, AccumulateGrad, ..."""
    next: list[int | None]
    """The node each ``next_functions`` slot feeds (None: an input that needs no gradient)."""
    leaf: str | None = None
    """For AccumulateGrad: the name of the leaf tensor it accumulates into."""
    grad_in: list[TensorVal | None] = Field(default_factory=list)
    grad_out: list[TensorVal | None] = Field(default_factory=list)
    executed: bool = False


class TapeStep(BaseModel):
    """One node run by the backward pass, and every leaf's ``.grad`` right after it."""

    node: int
    leaf_grads: dict[str, TensorVal | None]


class Leaf(BaseModel):
    """A leaf tensor: its gradient after backward, checked against finite differences."""

    shape: list[int]
    grad: Any
    """``.grad`` as a nested list (None if backward never reached it)."""
    grad_elided: bool = False
    fd_grad: list[float] | None = None
    """Central differences in float64 for the first elements (flattened)."""
    fd_max_error: float | None = None
    fd_ok: bool | None = None
    fd_note: str = ""


class SecondBackward(BaseModel):
    """What a second ``backward()`` on the same graph did."""

    ok: bool
    error: str | None = None
    grads: dict[str, TensorVal | None] = Field(default_factory=dict)
    """Leaf grads after it (accumulated) when it worked."""
    retained: dict[str, TensorVal | None] = Field(default_factory=dict)
    """Leaf grads after ``backward(retain_graph=True)`` then ``backward()``: the two sum."""


class NoGradRun(BaseModel):
    """The same code under ``torch.no_grad()``."""

    requires_grad: bool
    grad_fn: str | None
    error: str | None
    """What ``backward()`` said then."""


class Tape(BaseModel):
    """Everything the tape stepper shows for one piece of forward code."""

    code: str
    output: str
    """The name of the scalar (the last assigned name)."""
    value: float
    nodes: list[TapeNode]
    order: list[int]
    """Node ids in the order autograd ran them."""
    steps: list[TapeStep]
    leaves: dict[str, Leaf]
    intermediates: dict[str, TensorVal | None] = Field(default_factory=dict)
    """Named non-leaf tensors' ``.grad`` after backward *with* ``retain_grad()``."""
    without_retain: dict[str, bool] = Field(default_factory=dict)
    """Whether each named non-leaf tensor's ``.grad`` was None without ``retain_grad()``."""
    second_backward: SecondBackward | None = None
    no_grad: NoGradRun | None = None

    def node(self, node_id: int) -> TapeNode:
        """The node with this id."""
        return next(n for n in self.nodes if n.id == node_id)

    def label(self, node_id: int) -> str:
        """``PowBackward0`` or ``AccumulateGrad(x)``."""
        n = self.node(node_id)
        return f"{n.name}({n.leaf})" if n.leaf else n.name
