"""Data of the parameter & memory ledger (torch-free): what a module owns and what it costs."""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

#: dtype name -> bytes per element, as the ledger reports them (measured by the probe)
DTYPES: tuple[str, ...] = ("float32", "float16", "bfloat16", "int8")

#: module class -> the textbook formula of its parameter count
FORMULAS: dict[str, str] = {
    "Linear": "in·out + out",
    "Bilinear": "in1·in2·out + out",
    "Conv1d": "in·out·k + out",
    "Conv2d": "in·out·k·k + out",
    "Conv3d": "in·out·k·k·k + out",
    "BatchNorm1d": "2f (γ, β)",
    "BatchNorm2d": "2f (γ, β)",
    "LayerNorm": "2d (γ, β)",
    "GroupNorm": "2c (γ, β)",
    "Embedding": "vocab·dim",
}


class Buffer(BaseModel):
    """A tensor a module registered as a buffer: in ``state_dict`` but not ``parameters()``."""

    name: str
    shape: list[int]
    numel: int
    dtype: str
    bytes: int


class Layer(BaseModel):
    """One module of the tree, with the parameters it owns itself (not its children's)."""

    name: str
    """qualified name from ``named_modules()`` ("" for the root)."""
    kind: str
    """class name, e.g. ``Linear``."""
    depth: int
    params: int
    """parameters the module owns directly."""
    subtree: int
    """parameters of the module and everything under it."""
    formula: str = ""
    """textbook formula, e.g. ``in·out + out``; empty when there is none."""
    arithmetic: str = ""
    """the formula with this module's numbers, e.g. ``784·256 + 256``."""
    shapes: dict[str, list[int]] = Field(default_factory=dict)
    """own parameter name -> shape."""
    buffers: list[Buffer] = Field(default_factory=list)
    output_shape: list[int] | None = None
    """shape of the output in the measured forward pass (leaf modules)."""
    output_bytes: int | None = None
    """bytes of that output in its dtype."""


class Ledger(BaseModel):
    """The whole ledger of one module."""

    kind: str
    layers: list[Layer]
    truncated: int = 0
    """how many more modules the tree has beyond those listed."""
    total: int
    trainable: int
    buffers: int
    """elements held in buffers."""
    buffer_bytes: int
    element_size: dict[str, int]
    """dtype -> bytes per element (from ``torch.dtype.itemsize``)."""
    bytes: dict[str, int]
    """dtype -> bytes of all parameters stored in that dtype."""
    grad_bytes: int
    """float32 gradients: one per parameter."""
    adam_bytes: int
    """Adam's two moments in float32."""
    batch: int
    input_shape: list[int] | None = None
    """one sample's shape; the forward pass used ``[batch, *input_shape]``."""
    input_bytes: int | None = None
    activations: int | None = None
    """elements output by all leaf modules for the batch."""
    activation_bytes: int | None = None
    activation_note: str = ""
    """why the activations were not measured (empty when they were)."""


def parse_shape(text: str) -> list[int]:
    """``"3, 32, 32"``, ``"3x32x32"`` or ``"(784,)"`` -> a list of positive ints."""
    parts = [p for p in re.split(r"[\s,x×()\[\]]+", text.strip()) if p]
    if not parts or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ValueError(f"not a shape: {text!r} (write e.g. 784 or 3,32,32)")
    return [int(p) for p in parts]


def kib(n: int) -> str:
    """Bytes as KiB with one decimal, e.g. 940584 -> '918.5 KiB'."""
    return f"{n / 1024:,.1f} KiB"


def human_bytes(n: int) -> str:
    """Bytes in the largest binary unit that keeps the number >= 1."""
    value, unit = float(n), "B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            break
        value /= 1024
    if unit == "B":
        return f"{n:,} B"
    return f"{value:,.1f} {unit}" if unit == "KiB" else f"{value:,.2f} {unit}"
