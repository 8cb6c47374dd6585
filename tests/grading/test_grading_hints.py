"""Failure categories from exception messages, and the targeted hints."""

from __future__ import annotations

import pytest

from tutor.grading.hints import HINTS, exception_category, hint_for_category


@pytest.mark.parametrize(
    ("message", "category"),
    [
        ("view size is not compatible with input tensor's size and stride (at least one "
         "dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
         "non_contiguous_view"),
        ("The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
         "dimension 0", "broadcasting"),
        ("Expected all tensors to be on the same device, but found at least two devices, "
         "cuda:0 and cpu!", "device_mismatch"),
        ("expected m1 and m2 to have the same dtype, but got: float != double", "dtype_promotion"),
        ("result type Float can't be cast to the desired output type Long", "dtype_promotion"),
        ("index 5 is out of bounds for dimension 0 with size 3", None),
    ],
)  # fmt: skip
def test_exception_messages_map_to_categories(message, category):
    assert exception_category(message) == category


def test_every_category_has_a_hint_and_unknown_has_none():
    for category in HINTS:
        assert hint_for_category(category)
    assert hint_for_category(None) is None
    assert hint_for_category("no-such-category") is None


@pytest.mark.parametrize(
    ("message", "category"),
    [
        (
            "stack expects each tensor to be equal size, but got [3] at entry 0 and [5] at entry 1",
            "collate",
        ),
        ("Caught RuntimeError in DataLoader worker process 0.", "collate"),
        ("masked_fill_ only supports boolean masks, but got mask with dtype float", "mask_dtype"),
        (
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float",
            "mask_dtype",
        ),
        ("tensors used as indices must be long, int, byte or bool tensors", "mask_dtype"),
    ],
)
def test_a_hint_speaks_to_its_own_failure(message, category):
    """A DataLoader's collate error gets no broadcasting advice, a float mask no promotion
    rules."""
    assert exception_category(message) == category
    hint = hint_for_category(category) or ""
    assert "broadcast" not in hint.lower() and "promot" not in hint.lower()


def test_the_missed_raise_hint_names_no_one_failure():
    hint = hint_for_category("missed_raise") or ""
    assert "broadcast" not in hint and "view" not in hint
