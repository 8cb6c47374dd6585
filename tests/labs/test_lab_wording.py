"""Counts in the labs' own sentences read as words: one rank, one worker, one sample, never
"rank(s)" (recorded probe data, no sandbox)."""

from __future__ import annotations

from labs.harness import recorded
from tutor.probes.data_loader import LoaderRun
from tutor.probes.data_ranks import Ranks
from tutor.probes.ranks import explain as explain_ranks
from tutor.ui.labs.loader.screen import explain as explain_loader


def test_a_collective_that_failed_on_one_rank_names_one_rank():
    data = recorded(Ranks, "ranks_slow.json")
    one = data.model_copy(update={"errors": [None, "boom", None, None]})
    assert explain_ranks(one) == "The collective failed on rank [1]: boom"
    two = data.model_copy(update={"errors": ["boom", "boom", None, None]})
    assert explain_ranks(two).startswith("The collective failed on ranks [0, 1]: ")


def test_the_loader_explains_one_worker_and_one_dropped_sample_in_the_singular():
    data = recorded(LoaderRun, "loader_workers.json")  # 20 samples in batches of 3
    one = data.model_copy(update={"workers": 1, "samples": 19, "drop_last": True})
    text = explain_loader(one)
    assert "With 1 worker the worker makes every batch;" in text
    assert "The lane starts late" in text
    assert text.endswith("drop_last=True dropped the last sample.")
    many = explain_loader(data.model_copy(update={"samples": 23, "drop_last": True}))
    assert "With 2 workers each worker makes whole batches" in many
    assert many.endswith("drop_last=True dropped the last 2 samples.")


def test_one_rank_left_holding_a_half_finished_exchange_was_left():
    data = recorded(Ranks, "ranks_slow.json")  # 4 ranks, values 1 to 4
    timeout = "Timed out waiting 2000ms for recv operation to complete"
    skipped = data.model_copy(
        update={
            "skip_rank": 1,
            "errors": [timeout, None, timeout, timeout],
            "after": [[1.0], [2.0], [7.0], [4.0]],
        }
    )
    assert "Rank 2 was left holding a half-finished exchange." in explain_ranks(skipped)
    two = skipped.model_copy(update={"after": [[3.0], [2.0], [7.0], [4.0]]})
    assert "Ranks 0, 2 were left holding a half-finished exchange." in explain_ranks(two)


def test_with_no_workers_the_late_first_batch_is_explained():
    data = recorded(LoaderRun, "loader_workers.json")
    text = explain_loader(data.model_copy(update={"workers": 0}))
    assert text.startswith("With 0 workers the main process makes each batch")
    assert "The first batch starts after a pause" in text
