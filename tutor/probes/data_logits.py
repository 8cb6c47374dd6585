"""Data of the cross-entropy logits lab (torch-free): softmax, loss and gradient of some logits."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

MAX_CLASSES = 12


class Mode(BaseModel):
    """``CrossEntropyLoss`` applied one way: to the logits, or (the bug) to their softmax."""

    loss: float
    grad: list[float]
    """d loss / d logits, computed by autograd."""
    grad_norm: float
    floor: float
    """the loss with the logits pushed far towards the target: the best this mode can reach."""


class Sweep(BaseModel):
    """The loss, both ways, as the target's logit slides with the other logits held still."""

    x: list[float]
    """values given to the target's logit."""
    correct: list[float]
    softmax_first: list[float]


class LogitsResult(BaseModel):
    """What cross-entropy does with one row of logits and a target class."""

    logits: list[float]
    target: int
    probs: list[float]
    """``softmax(logits)``."""
    p_minus_y: list[float]
    """``probs - one_hot(target)``: the textbook gradient."""
    max_diff: float
    """largest |autograd gradient - (p - y)| of the correct mode."""
    grad_matches: bool
    """whether autograd's gradient equals ``p - y`` (``torch.allclose``)."""
    correct: Mode
    softmax_first: Mode
    push: float
    """how far the logits were pushed (±push) to find each mode's floor."""
    active: Literal["correct", "softmax_first"]
    """which mode the learner switched on."""
    sweep: Sweep | None = None
    """the loss curve along the target's logit."""

    @property
    def shown(self) -> Mode:
        """The mode the learner switched on."""
        return self.softmax_first if self.active == "softmax_first" else self.correct


def parse_logits(text: str) -> list[float]:
    """``"2, 1, 0.1"`` (commas or spaces, brackets allowed) -> a list of 2..12 floats."""
    parts = [p for p in re.split(r"[\s,\[\]()]+", text.strip()) if p]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"not a list of numbers: {text!r} (write e.g. 2, 1, 0.1)") from None
    check_logits(values)
    return values


def check(logits: list[float], target_class: int = 0, **_: object) -> None:
    """Raise ValueError unless the logits are sane and the target is one of their classes
    (the probe's own rule, checked before a run by the lab's screen and command)."""
    check_logits(logits)
    if not 0 <= target_class < len(logits):
        raise ValueError(
            f"the target must be a class between 0 and {len(logits) - 1}, not {target_class}"
        )


def check_logits(values: list[float]) -> None:
    """Raise ValueError unless ``values`` are 2..12 finite logits of a sane size."""
    if not 2 <= len(values) <= MAX_CLASSES:
        raise ValueError(f"give between 2 and {MAX_CLASSES} logits, not {len(values)}")
    if any(not abs(v) <= 1e4 for v in values):
        raise ValueError("each logit must be a finite number between -10000 and 10000")
