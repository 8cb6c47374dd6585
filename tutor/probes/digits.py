"""The 8×8 handwritten digits that ship with the project (``data/digits``), as tensors.

The one loader of the data set: the training-run lab, the lessons and the drills read it from here.
Reading happens on the first call, never at import (the runtime imports every probe at start-up).
"""

from __future__ import annotations

import csv
import gzip
from functools import cache
from pathlib import Path

import torch
from torch.utils.data import Dataset

#: the data file (1,797 rows of 64 pixels 0..16 and a label 0..9; see data/digits/README.md)
DIGITS_CSV = Path(__file__).resolve().parents[2] / "data" / "digits" / "digits.csv.gz"

#: how many rows the fixed split keeps aside for testing (about 20%)
TEST_SIZE = 360

#: the seed of the fixed train/test split
SPLIT_SEED = 0


@cache
def _rows(path: str) -> tuple[tuple[int, ...], ...]:
    with gzip.open(path, "rt", newline="") as f:
        return tuple(tuple(int(v) for v in row) for row in csv.reader(f) if row)


def load_digits(path: Path | str = DIGITS_CSV) -> tuple[torch.Tensor, torch.Tensor]:
    """All rows: pixels as float32 of shape (N, 64) with values 0..16, labels as int64 (N,)."""
    table = torch.tensor(_rows(str(path)), dtype=torch.int64)
    return table[:, :64].to(torch.float32), table[:, 64].clone()


def split_indices(
    n: int, test_size: int = TEST_SIZE, seed: int = SPLIT_SEED
) -> tuple[torch.Tensor, torch.Tensor]:
    """A fixed shuffled split of ``range(n)``: (train indices, test indices)."""
    order = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    return order[test_size:], order[:test_size]


class DigitsDataset(Dataset[tuple[torch.Tensor, torch.Tensor]]):
    """One part of the digits (``"train"``, ``"test"`` or ``"all"``): items are
    ``(pixels / 16 as float32 (64,), label as int64 ())``."""

    def __init__(self, part: str = "train", path: Path | str = DIGITS_CSV) -> None:
        if part not in ("train", "test", "all"):
            raise ValueError(f"part must be 'train', 'test' or 'all', not {part!r}")
        x, y = load_digits(path)
        if part != "all":
            train, test = split_indices(len(y))
            keep = train if part == "train" else test
            x, y = x[keep], y[keep]
        self.x = x / 16.0
        self.y = y

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.x[i], self.y[i]
