"""The ledger probe, in-process with real torch: the numbers of COURSE.md chapters 1, 3, 4."""

from __future__ import annotations

import pytest

from tutor.probes.data_ledger import human_bytes, kib, parse_shape
from tutor.probes.ledger import ledger

MLP = (
    "nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),"
    " nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))"
)
MLP_BN = (
    "nn.Sequential(nn.Linear(784, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),"
    " nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))"
)
RESIDUAL = """
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return x + self.norm(self.lin(x)).relu()


class ResidualNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(128) for _ in range(4)])
        self.head = nn.Linear(128, 10)

    def forward(self, x):
        return self.head(self.blocks(x))


ResidualNet()
"""


def test_mlp_with_dropout():
    led = ledger(MLP, batch=64)
    assert led.total == 235_146 and led.trainable == 235_146
    assert led.bytes["float32"] == 940_584
    assert kib(led.bytes["float32"]) == "918.5 KiB"
    assert kib(led.bytes["float16"]) == "459.3 KiB"
    assert kib(led.bytes["bfloat16"]) == "459.3 KiB"
    assert kib(led.bytes["int8"]) == "229.6 KiB"
    assert led.adam_bytes == 1_881_168 and human_bytes(led.adam_bytes) == "1.79 MiB"
    assert led.buffers == 0
    # a batch of 64 flattened 28x28 images: 64*784*4 bytes
    assert led.input_shape == [784] and led.input_bytes == 200_704
    first = next(layer for layer in led.layers if layer.kind == "Linear")
    assert first.params == 200_960 and first.arithmetic == "784·256 + 256"
    assert first.output_shape == [64, 256] and first.output_bytes == 64 * 256 * 4


def test_mlp_with_batchnorm_buffers_are_not_parameters():
    led = ledger(MLP_BN)
    assert led.total == 235_914
    bn = [layer for layer in led.layers if layer.kind == "BatchNorm1d"]
    assert [layer.params for layer in bn] == [512, 256]
    assert {b.name for b in bn[0].buffers} == {"running_mean", "running_var", "num_batches_tracked"}
    assert led.buffers == 2 * (256 + 128) + 2


@pytest.mark.parametrize(
    "code, total",
    [
        ("nn.Linear(4, 3)", 15),
        ("nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))", 203_530),
        (RESIDUAL, 68_362),
        ("nn.Conv2d(3, 16, 3)", 3 * 16 * 3 * 3 + 16),
        ("nn.Embedding(1000, 64)", 64_000),
        ("nn.LayerNorm(10)", 20),
        ("nn.ReLU()", 0),
    ],
)
def test_totals(code, total):
    assert ledger(code).total == total


def test_huge_model_costs_nothing_on_meta():
    led = ledger("nn.Linear(100_000, 100_000)", batch=2)
    assert led.total == 10_000_100_000
    assert led.activations == 200_000


def test_input_shape_and_forward_error_is_a_note():
    led = ledger("nn.Sequential(nn.Linear(10, 5), nn.Linear(6, 2))")
    assert led.total == 55 + 14 and led.activations is None
    assert led.activation_note.startswith("forward failed: RuntimeError")
    conv = ledger(
        "nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten())", batch=2, input_shape=[3, 32, 32]
    )
    assert conv.layers[1].output_shape == [2, 8, 30, 30]


@pytest.mark.parametrize(
    "code, error, message",
    [
        ("nn.Linear(4,", ValueError, "syntax error on line 1"),
        ("3 + 4", TypeError, "not an nn.Module"),
        ("", ValueError, "type an expression"),
        ("nn.Linear(4, 3)\nfor i in range(3): pass", ValueError, "last line"),
    ],
)
def test_bad_code_says_why(code, error, message):
    with pytest.raises(error, match=message):
        ledger(code)


def test_parse_shape():
    assert parse_shape("3, 32, 32") == parse_shape("3x32x32") == [3, 32, 32]
    with pytest.raises(ValueError):
        parse_shape("a, b")
