"""The stride-map probe, run in-process with real torch: offsets, strides, view/reshape verdicts,
shared storage, elision, input errors, and the recordings the widget snapshots draw."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from labs.harness import kept
from tutor.probes.data_stride_map import StrideMap
from tutor.probes.stride_map import StrideInputError, stride_map

#: recording file -> the probe's arguments (deterministic: the probe seeds torch)
RECORDINGS = {
    "stride_permute.json": {"expr": "torch.randn(2, 3, 4).permute(2, 0, 1)", "view": "24"},
    "stride_shared.json": {
        "expr": "a.view(3, 4).t()",
        "setup": "a = torch.arange(12)",
        "view": "-1",
    },
    "stride_expand.json": {"expr": "torch.arange(3.).expand(1000, 1000, 3)", "view": "-1"},
    "stride_slice.json": {"expr": "torch.arange(40.).view(5, 8)[1:, ::2]", "view": "4, 4"},
}


def as_strided_read(t: torch.Tensor, offset: int) -> torch.Tensor:
    """The element at storage ``offset`` of ``t``'s storage, read through as_strided."""
    return torch.as_strided(t, (), (), offset)


def check_offsets(data: StrideMap, t: torch.Tensor) -> None:
    """Every recorded offset reads the element at that index, and the values agree."""
    assert data.offsets, "no offsets were computed"
    for k, entry in enumerate(data.offsets):
        *index, offset = entry
        assert offset == data.offset_of(tuple(index))
        assert as_strided_read(t, offset).item() == t[tuple(index)].item()
        if data.values is not None:
            assert data.values[k] == pytest.approx(t[tuple(index)].item(), rel=1e-5)


def test_permute_is_the_course_example():
    data = stride_map("torch.randn(2, 3, 4).permute(2, 0, 1)", view="24")
    assert data.shape == [4, 2, 3] and data.stride == [1, 12, 4]
    assert not data.contiguous and data.storage_offset == 0
    assert data.dtype == "torch.float32" and data.element_size == 4 and data.device == "cpu"
    assert data.arithmetic((1, 1, 2)) == "0 + 1·1 + 12·1 + 4·2 = 21"
    assert data.view is not None and not data.view.ok
    assert "view size is not compatible" in (data.view.error or "")
    assert data.view.reshape_ok and data.view.reshape_copied is True
    assert data.view.breaks == [0]
    assert "stride[0] = 1" in data.view.why and "12·2 = 24" in data.view.why
    assert [s.name for s in data.shared] == ["._base"]


def test_contiguous_view_works_and_reshape_does_not_copy():
    data = stride_map("torch.arange(24).view(2, 3, 4)", view="6, 4")
    assert data.stride == [12, 4, 1] and data.contiguous
    assert data.view is not None and data.view.ok and data.view.result_stride == [4, 1]
    assert data.view.reshape_copied is False


@pytest.mark.parametrize(
    "expr, shape, stride, offset",
    [
        ("torch.arange(10)[2::3]", [3], [3], 2),
        ("torch.zeros(3, 1).expand(3, 4)", [3, 4], [1, 0], 0),
        ("torch.arange(12.).view(3, 4).t()", [4, 3], [1, 4], 0),
        ("torch.arange(8.).unfold(0, 3, 2)", [3, 3], [2, 1], 0),
        ("torch.as_strided(torch.arange(10.), (3, 3), (1, 2), 1)", [3, 3], [1, 2], 1),
        ("torch.arange(24.).view(2, 3, 4)[:, 1]", [2, 4], [12, 1], 4),
        ("torch.tensor(5.)", [], [], 0),
        ("torch.ones(2, 3, dtype=torch.float16)", [2, 3], [3, 1], 0),
    ],
)
def test_many_expressions(expr, shape, stride, offset):
    data = stride_map(expr)
    assert (data.shape, data.stride, data.storage_offset) == (shape, stride, offset)
    check_offsets(data, eval(expr, {"torch": torch}))


def test_shared_storage_names_the_base_variable():
    data = stride_map("a.view(3, 4).t()", setup="a = torch.arange(12)\nb = torch.ones(2)")
    assert [s.name for s in data.shared] == ["a"]
    assert data.shared[0].cells == list(range(12))


def test_huge_expand_is_elided_not_materialised():
    data = stride_map("torch.zeros(1).expand(10**9)")
    assert data.numel == 10**9 and data.storage_elements == 1 and data.elided
    assert len(data.offsets) <= 4096 and {o[-1] for o in data.offsets} == {0}
    big = stride_map("torch.arange(3.).expand(1000, 1000, 3)")
    assert big.window == [4, 16, 3] and big.stride == [0, 0, 1] and big.elided


def test_meta_tensor_has_offsets_but_no_values():
    data = stride_map('torch.empty(3, 4, device="meta").t()')
    assert data.device == "meta" and data.values is None and data.strip_values is None
    assert data.offsets[1] == [0, 1, 4]


@pytest.mark.parametrize(
    "expr, says",
    [
        ("torch.randn(", "syntax error"),
        ("[1, 2, 3]", "a list, not a tensor"),
        ("undefined_name", "NameError"),
        ("torch.ones(3).to_sparse()", "has no strides"),
        ("x = 1", "gave a NoneType"),
    ],
)
def test_bad_input_says_why(expr, says):
    with pytest.raises(StrideInputError, match=says):
        stride_map(expr)


def test_allocation_failure_says_how_big():
    with pytest.raises(StrideInputError, match="asked for 40,000,000,000 bytes"):
        stride_map("torch.empty(10**10)")


def test_bad_view_shape_says_why():
    with pytest.raises(StrideInputError, match="integers"):
        stride_map("torch.ones(4)", view="two by two")
    data = stride_map("torch.ones(4)", view="5")
    assert data.view is not None and not data.view.ok and not data.view.reshape_ok
    assert "invalid for input of size 4" in (data.view.error or "")


@st.composite
def strided_exprs(draw):
    """A random contiguous base, a permutation, a slice with steps on each dim, and sometimes
    a broadcast (stride-0) leading dim."""
    ndim = draw(st.integers(1, 4))
    shape = draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim))
    perm = draw(st.permutations(range(ndim)))
    slices = []
    for size in (shape[p] for p in perm):
        start = draw(st.integers(0, size - 1))
        step = draw(st.integers(1, 3))
        slices.append(f"{start}::{step}")
    n = 1
    for s in shape:
        n *= s
    expr = f"torch.arange({n}.).reshape{tuple(shape)}.permute{tuple(perm)}[{', '.join(slices)}]"
    copies = draw(st.integers(0, 3))
    if copies:  # a broadcast leading dim: stride 0
        expr += f".unsqueeze(0).expand({copies}, {', '.join(['-1'] * ndim)})"
    return expr


@settings(max_examples=60, deadline=None)
@given(strided_exprs())
def test_every_offset_reads_the_element_through_as_strided(expr):
    data = stride_map(expr)
    t = eval(expr, {"torch": torch})
    assert data.shape == list(t.shape) and data.stride == list(t.stride())
    assert data.storage_offset == t.storage_offset() and data.contiguous == t.is_contiguous()
    check_offsets(data, t)


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_recordings_match_the_probe(name):
    """The widget snapshots draw these files; they must still be what the probe says."""
    current = stride_map(**RECORDINGS[name]).model_dump(mode="json")
    assert kept(name, current) == current
