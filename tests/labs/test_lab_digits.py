"""The shipped digits and their one loader, with real torch: the file is the documented data set,
the split is fixed and disjoint, and a sandboxed run can read it."""

from __future__ import annotations

import hashlib

import torch

from tutor.probes.digits import DIGITS_CSV, DigitsDataset, load_digits, split_indices

SHA256 = "09f66e6debdee2cd2b5ae59e0d6abbb73fc2b0e0185d2e1957e9ebb51e23aa22"


def test_the_file_is_the_documented_one():
    assert hashlib.sha256(DIGITS_CSV.read_bytes()).hexdigest() == SHA256
    readme = (DIGITS_CSV.parent / "README.md").read_text()
    assert SHA256 in readme and "CC BY 4.0" in readme
    assert (DIGITS_CSV.parent / "LICENSE").is_file()


def test_load_digits_shapes_values_and_classes():
    x, y = load_digits()
    assert x.shape == (1797, 64) and x.dtype == torch.float32
    assert y.shape == (1797,) and y.dtype == torch.int64
    assert x.min().item() == 0 and x.max().item() == 16
    counts = torch.bincount(y, minlength=10).tolist()
    assert len(counts) == 10 and min(counts) == 174 and max(counts) == 183


def test_split_is_fixed_and_disjoint():
    train, test = split_indices(1797)
    again_train, again_test = split_indices(1797)
    assert torch.equal(train, again_train) and torch.equal(test, again_test)
    assert (len(train), len(test)) == (1437, 360)
    assert sorted(torch.cat([train, test]).tolist()) == list(range(1797))


def test_dataset_items_are_scaled_pixels_and_labels():
    train, test = DigitsDataset("train"), DigitsDataset("test")
    assert (len(train), len(test), len(DigitsDataset("all"))) == (1437, 360, 1797)
    x, y = train[0]
    assert x.shape == (64,) and x.min() >= 0 and x.max() <= 1 and y.dtype == torch.int64
    assert sorted(set(test.y.tolist())) == list(range(10))


def test_bad_part_is_refused():
    try:
        DigitsDataset("validation")
    except ValueError as e:
        assert "validation" in str(e)
    else:
        raise AssertionError("an unknown part was accepted")
