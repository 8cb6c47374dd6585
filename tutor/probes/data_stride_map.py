"""The stride map's data: what the probe measured about one tensor (torch-free).

The probe (``tutor.probes.stride_map``) fills these models in the sandbox; the stride-map
widgets, the lab screen and ``tutor lab stride`` read them.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

#: a JSON-safe element value (non-finite floats and complex numbers arrive as strings)
Scalar = bool | int | float | str | None


class SharedWith(BaseModel):
    """Another tensor that uses the same storage (a named tensor of the setup, or ``._base``)."""

    name: str
    """How the learner knows it: a variable name, or ``<expr>._base``."""
    shape: list[int]
    stride: list[int]
    storage_offset: int
    cells: list[int] = Field(default_factory=list)
    """The storage cells it covers inside the drawn strip (bounded)."""


class ViewTry(BaseModel):
    """The outcome of ``t.view(shape)`` and ``t.reshape(shape)`` on the tensor."""

    shape: list[int]
    """The shape asked for (may hold -1)."""
    ok: bool
    """Whether ``view`` worked."""
    error: str | None = None
    """torch's own error text when it did not."""
    result_shape: list[int] | None = None
    result_stride: list[int] | None = None
    breaks: list[int] = Field(default_factory=list)
    """Dims i that the view had to merge although stride[i] != stride[i+1]*size[i+1]."""
    why: str = ""
    """A plain-words reason, with the failing arithmetic."""
    reshape_ok: bool = False
    reshape_copied: bool | None = None
    """Whether ``reshape`` had to copy (its storage's data_ptr differs)."""
    reshape_error: str | None = None


class StrideMap(BaseModel):
    """A tensor's metadata and the storage offset of every element of a bounded window."""

    expr: str
    shape: list[int]
    stride: list[int]
    storage_offset: int
    contiguous: bool
    dtype: str
    device: str
    element_size: int
    numel: int
    storage_elements: int
    """How many elements of this dtype the underlying storage holds."""
    window: list[int]
    """Sizes of the window ``t[0:w0, 0:w1, ...]`` whose offsets were computed."""
    elided: bool
    """True when the window is smaller than the tensor."""
    offsets: list[list[int]]
    """``[i, j, ..., offset]`` for every element of the window, in row-major order."""
    values: list[Scalar] | None = None
    """The element values, parallel to ``offsets`` (None on the meta device)."""
    strip_start: int = 0
    """The first storage cell drawn in the strip."""
    strip_values: list[Scalar] | None = None
    strip_len: int = 0
    shared: list[SharedWith] = Field(default_factory=list)
    view: ViewTry | None = None

    def offset_of(self, index: tuple[int, ...]) -> int | None:
        """The storage offset of ``index`` by the stride formula (None outside the tensor)."""
        if len(index) != len(self.shape):
            return None
        if any(i < 0 or i >= s for i, s in zip(index, self.shape, strict=True)):
            return None
        return self.storage_offset + sum(i * s for i, s in zip(index, self.stride, strict=True))

    def arithmetic(self, index: tuple[int, ...]) -> str:
        """The offset sum spelled out, e.g. ``0 + 12·1 + 4·0 + 1·2 = 14``."""
        total = self.offset_of(index)
        if total is None:
            return ""
        terms = [str(self.storage_offset)] + [
            f"{s}·{i}" for i, s in zip(index, self.stride, strict=True)
        ]
        return " + ".join(terms) + f" = {total}"

    def formula(self) -> str:
        """The symbolic formula, e.g. ``offset 0 + 12·a + 4·b + 1·c``."""
        names = index_names(len(self.shape))
        terms = [f"{s}·{n}" for s, n in zip(self.stride, names, strict=True)]
        return " + ".join([str(self.storage_offset), *terms])


def index_names(ndim: int) -> list[str]:
    """Letters for the index of each dim: a, b, c, ..."""
    return [chr(ord("a") + k) if k < 26 else f"i{k}" for k in range(ndim)]
