"""Chapter 12's practice of a training run (sanity checks, validation, weight decay, clipping,
atomic checkpoints, determinism, the run on XLA), held to what torch prints.

Each number is (1) in the recorded output of a lesson snippet and (2) printed again when the
snippet runs now in the sandbox (the xla runtime for the XLA run). The relations the lesson
states (a loss near ln 10, AdamW's factor 1 - lr*wd, clipping to max_norm, ...) are checked on the
numbers torch prints now, not on numbers typed here.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

LESSON = Path(__file__).resolve().parents[2] / "lessons" / "12-training-run.md"

# (what the lesson teaches, the text torch prints for it)
FACTS = [
    ("the untrained loss is near ln 10", "ln 10 = 2.3026"),
    ("one batch is learned", "one batch, 100 steps, logits                     : loss 0.0010"),
    ("softmax before cross_entropy has a floor", "ln(1 + 9/e) = 1.4612"),
    ("validation loss is lowest early", "lowest validation loss 0.4244 at step 17"),
    ("Adam's L2 moves every weight by lr", "weight_decay=1.0   Adam [3.9, -1.9, 0.4]"),
    ("AdamW multiplies by 1 - lr*wd", "AdamW [3.6, -1.8, 0.45]"),
    ("Adam(decoupled_weight_decay=True) is AdamW", "is AdamW: True"),
    ("AdamW decays by default", "default weight_decay: Adam 0  AdamW 0.01"),
    ("AdamW 1.0 gives the lowest validation loss", "AdamW, decay 1.0   train loss 0.0097"),
    ("clip_grad_norm_ returns the norm before", "returns tensor(0.4425); the norm is now 0.0999998"),
    ("a non-finite norm wipes the gradients", "leaves 1 nan and 4809 zeros of 4810 gradients"),
    ("a healthy run's gradient norms", "135 steps: median norm 0.688, largest 1.456"),
    ("an in-place write that dies leaves nothing loadable", "torch.load: EOFError"),
    ("an atomic write that dies keeps the old checkpoint", "ckpt.pt.tmp': 10766} -> ckpt.pt: epoch 1"),
    ("deterministic mode refuses put_", "put_: RuntimeError: put_ does not have a deterministic"),
    ("deterministic mode fills empty memory", "torch.empty(3): tensor([nan, nan, nan])"),
]  # fmt: skip


def numbers(pattern: str, text: str) -> list[float]:
    """The floats of the first match of ``pattern`` in ``text`` (its groups)."""
    found = re.search(pattern, text)
    assert found, f"{pattern!r} not in:\n{text}"
    return [float(g) for g in found.groups()]


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_fact_recorded_and_reproduced(course, fact, needle):
    course.check_fact(LESSON, fact, needle)


def fresh(course, shows: str) -> str:
    return course.fresh(LESSON, course.snippet(LESSON, shows))


def test_sanity_checks(course):
    out = fresh(course, "ln 10 =")
    first, ln10 = numbers(r"initial loss ([\d.]+)\s+ln 10 = ([\d.]+)", out)
    assert ln10 == pytest.approx(math.log(10), abs=1e-4)
    assert abs(first - ln10) < 0.05, out
    assert numbers(r"x100: initial loss ([\d.]+)", out)[0] > 3 * ln10
    logits_loss, logits_acc = numbers(r"logits\s+: loss ([\d.]+), accuracy (\d+)%", out)
    assert logits_loss < 0.01 and logits_acc == 100
    floor = numbers(r"ln\(1 \+ 9/e\) = ([\d.]+)", out)[0]
    assert floor == pytest.approx(math.log(1 + 9 / math.e), abs=1e-4)
    softmax_loss = numbers(r"softmax, then cross_entropy: loss ([\d.]+)", out)[0]
    assert softmax_loss >= floor


def test_validation_loss_turns_while_training_loss_falls(course):
    out = fresh(course, "lowest validation loss")
    rows = re.findall(r"step +(\d+): train loss ([\d.]+)  validation loss ([\d.]+)", out)
    last_train, last_val = float(rows[-1][1]), float(rows[-1][2])
    lowest, at = numbers(r"lowest validation loss ([\d.]+) at step (\d+)", out)
    assert last_train < 0.01 and at < 50 and last_val > lowest + 0.1, out


def test_weight_decay_coupled_and_decoupled(course):
    out = fresh(course, "is AdamW: True")
    start = [4.0, -2.0, 0.5]
    rows = re.findall(r"weight_decay=([\d.]+) +Adam \[(.*?)\]  AdamW \[(.*?)\]", out)
    assert len(rows) == 3, out
    for decay, adam, adamw in rows:
        moved = [abs(w - float(v)) for w, v in zip(start, adam.split(", "), strict=True)]
        assert moved == pytest.approx([0.1] * 3, abs=1e-5), (decay, adam)
        factor = 1 - 0.1 * float(decay)
        assert [float(v) for v in adamw.split(", ")] == pytest.approx([w * factor for w in start])
    runs = fresh(course, "AdamW, decay 1.0")
    val = {
        name.strip(): float(v)
        for name, v in re.findall(r"^(.*?) train loss [\d.]+  validation loss ([\d.]+)", runs, re.M)
    }
    train_l2 = numbers(r"L2    0.1   train loss ([\d.]+)", runs)[0]
    assert val["AdamW, decay 1.0"] == min(val.values()) and train_l2 > 0.5, runs


def test_clipping_returns_the_norm_before(course):
    out = fresh(course, "error_if_nonfinite=True")
    by_hand = numbers(r"by hand: ([\d.]+)", out)[0]
    returned, after = numbers(r"returns tensor\(([\d.]+)\); the norm is now ([\d.]+)", out)
    assert returned == pytest.approx(by_hand, abs=1e-4) and after == pytest.approx(0.1, abs=1e-6)
    low, high, formula = numbers(
        r"scaled by ([\d.]+) \.\. ([\d.]+); 0.1 / \(norm \+ 1e-6\) = ([\d.]+)", out
    )
    assert low == high == pytest.approx(formula, abs=2e-7)
    assert "gradients unchanged: True" in out and "it returns tensor(inf)" in out
    norms = fresh(course, "would clip:")
    median, largest = numbers(r"median norm ([\d.]+), largest ([\d.]+)", norms)
    assert median < 1.0 < largest < 3 * median


def test_atomic_write_keeps_a_loadable_checkpoint(course):
    out = fresh(course, "atomic, died halfway")
    assert out.count("torch.load: ") == 3 and "torch.load: epoch" not in out
    assert re.search(r"atomic, died halfway: .* -> ckpt.pt: epoch 1\n", out)
    assert re.search(r"atomic, finished: \{'ckpt.pt': \d+\} -> ckpt.pt: epoch 2", out)


def test_the_run_agrees_across_the_bridge(course, xla_sandbox):
    block = course.snippet(LESSON, "XLA programs compiled")
    assert block.runtime == "xla"
    out = course.fresh(LESSON, block, xla_sandbox)
    epochs = re.findall(
        r"mean loss eager ([\d.]+)  xla ([\d.]+)  \| test accuracy ([\d.]+)% and ([\d.]+)%", out
    )
    assert len(epochs) == 2, out
    for eager, xla, eager_acc, xla_acc in epochs:
        assert eager == xla and eager_acc == xla_acc
    assert float(epochs[-1][2]) >= 90.0
    assert "90 step losses" in out and "below 1e-6: True" in out
    assert "XLA programs compiled: 5 | executed: 94" in out
