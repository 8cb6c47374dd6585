"""The loader probe, run in-process with real torch: the batch arithmetic a real DataLoader does,
real worker processes making the batches, and bad options refused. Never timing values, only
their order."""

from __future__ import annotations

import pytest

from tutor.commands.labs.loader import render
from tutor.probes.data_loader import MAX_TIMELINE
from tutor.probes.loader import LoaderInputError, loader
from tutor.ui.labs.loader.screen import summary


def check_timeline(data, workers: int) -> None:
    assert [e.batch for e in data.timeline] == list(range(data.batches))
    ids = {e.worker for e in data.timeline}
    assert ids <= ({-1} if workers == 0 else set(range(workers)))
    assert all(0 <= e.start_ms <= e.end_ms for e in data.timeline)


@pytest.mark.parametrize(
    "samples, batch, drop_last, batches, full, last",
    [
        (10, 3, False, 4, 3, 1),
        (10, 3, True, 3, 3, 3),
        (12, 4, False, 3, 3, 4),
        (2, 5, False, 1, 0, 2),
        (2, 5, True, 0, 0, 0),
    ],
)
def test_the_batch_arithmetic_is_the_loaders(samples, batch, drop_last, batches, full, last):
    data = loader(samples=samples, batch=batch, drop_last=drop_last)
    assert (data.batches, data.full, data.last) == (batches, full, last)
    assert data.steps_per_epoch == batches and data.samples == samples
    check_timeline(data, 0)


def test_worker_processes_make_the_batches_round_robin():
    data = loader(samples=20, batch=3, workers=2)
    assert (data.batches, data.full, data.last) == (7, 6, 2)
    check_timeline(data, 2)
    assert [e.worker for e in data.timeline] == [k % 2 for k in range(7)]
    assert data.made_by == {0: 4, 1: 3}


def test_a_long_epoch_keeps_the_first_batches_and_counts_them_all():
    data = loader(samples=MAX_TIMELINE + 250, batch=1)
    assert data.batches == MAX_TIMELINE + 250
    assert [e.batch for e in data.timeline] == list(range(MAX_TIMELINE))
    assert data.made_by == {-1: MAX_TIMELINE + 250}
    assert f"first {MAX_TIMELINE} of {data.batches} batches" in summary(data).plain
    assert f"timeline of the first {MAX_TIMELINE} batches" in render(data)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"samples": 0}, "samples must be 1"),
        ({"samples": 100_001}, "samples must be 1"),
        ({"batch": 0}, "batch must be 1"),
        ({"workers": 5}, "workers must be 0 to 4"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(LoaderInputError, match=message):
        loader(**options)
