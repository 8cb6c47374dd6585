"""The training-run probe, in-process with real torch: the default run passes 90% test accuracy
within 3 epochs, a resumed run is the uninterrupted run bit for bit, and bad configs are refused
with a message that says what to change. Never asserts on a timing value."""

from __future__ import annotations

import base64
import io

import pytest
import torch

from tutor.probes.train import build, train


@pytest.fixture(scope="module")
def three():
    torch.set_num_threads(1)
    return train(epochs=3)


def test_three_epochs_reach_ninety_percent(three):
    assert three.dataset.model_dump() == {"name": "digits", "train": 1437, "test": 360}
    assert [e.epoch for e in three.epochs] == [1, 2, 3]
    assert three.epochs[-1].test_accuracy >= 0.90
    assert three.epochs[0].train_loss > three.epochs[-1].train_loss
    assert three.params == 64 * 64 + 64 + 64 * 10 + 10
    assert len(three.steps) == 3 * 45  # ceil(1437 / 32) steps an epoch
    assert [round(e.lr, 6) for e in three.epochs] == [0.05, 0.035, 0.0245]


def test_checkpoint_holds_everything_to_resume(three):
    c = three.checkpoint
    assert c.epoch == 3 and c.resumed_from is None
    assert c.keys == ["epoch", "model", "optimizer", "scheduler", "rng", "config"]
    blob = base64.b64decode(three.state)
    assert len(blob) == c.bytes
    saved = torch.load(io.BytesIO(blob), weights_only=True)
    assert saved["epoch"] == 3 and set(saved["rng"]) == {"torch", "loader"}
    assert saved["optimizer"]["state"][0]["momentum_buffer"].shape == (64, 64)


def test_resume_is_the_uninterrupted_run(three):
    first = train(epochs=1)
    rest = train(epochs=2, state=first.state)
    assert rest.checkpoint.resumed_from == 1 and [e.epoch for e in rest.epochs] == [2, 3]
    assert first.steps + rest.steps == three.steps
    assert rest.state == three.state


def test_resume_refuses_another_config(three):
    with pytest.raises(ValueError, match="different config"):
        train(config="model = nn.Linear(64, 10)\n", state=three.state)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("lr = 0.1\n", "must define `model`"),
        ("model = nn.Linear(64, 3)\n", r"\(2, 64\) gave \(2, 3\)"),
        ("model = nn.Linear(64, 10)\nbatch_size = 0\n", "batch_size must be a positive int"),
        ("model = nn.Linear(64, 10)\nlr = -1\n", "lr must be a non-negative number"),
    ],
)
def test_bad_configs_say_what_to_change(config, message):
    with pytest.raises(ValueError, match=message):
        build(config)


def test_xla_backend_outside_the_xla_runtime_says_how_to_get_it():
    pytest.importorskip("torch")
    try:
        import torch_xla  # noqa: F401
    except ImportError:
        with pytest.raises(RuntimeError, match="make xla-runtime"):
            train(epochs=1, backend="xla")
    else:
        pytest.skip("this interpreter has torch_xla")
