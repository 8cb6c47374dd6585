"""Probe of the cross-entropy logits lab: softmax, CE loss and its gradient, by autograd."""

from __future__ import annotations

import torch
from torch import nn

from tutor.probes.data_logits import LogitsResult, Mode, Sweep, check

PUSH = 50.0
SWEEP = 8.0
POINTS = 65


def _mode(z: torch.Tensor, target: int, softmax_first: bool) -> tuple[float, torch.Tensor]:
    """Loss and d loss / d z of CrossEntropyLoss on z (or on softmax(z))."""
    z = z.detach().clone().requires_grad_(True)
    criterion = nn.CrossEntropyLoss()
    given = z.softmax(dim=1) if softmax_first else z
    loss = criterion(given, torch.tensor([target]))
    loss.backward()
    assert z.grad is not None
    return float(loss.detach()), z.grad[0]


def _evaluate(z: torch.Tensor, target: int, softmax_first: bool) -> Mode:
    loss, grad = _mode(z, target, softmax_first)
    far = torch.full_like(z, -PUSH)
    far[0, target] = PUSH
    floor, _ = _mode(far, target, softmax_first)
    return Mode(loss=loss, grad=grad.tolist(), grad_norm=float(grad.norm()), floor=floor)


def _sweep(z: torch.Tensor, target: int) -> Sweep:
    """Both losses for a batch of rows where only the target's logit changes."""
    centre = float(z[0, target])
    xs = torch.linspace(centre - SWEEP, centre + SWEEP, POINTS)
    rows = z.repeat(POINTS, 1)
    rows[:, target] = xs
    labels = torch.full((POINTS,), target)
    criterion = nn.CrossEntropyLoss(reduction="none")
    return Sweep(
        x=xs.tolist(),
        correct=criterion(rows, labels).tolist(),
        softmax_first=criterion(rows.softmax(dim=1), labels).tolist(),
    )


def logits(logits: list[float], target_class: int = 0, softmax_first: bool = False) -> LogitsResult:
    """Cross-entropy of one row of ``logits`` against class ``target_class``, both ways.

    (Not ``target``: that name is the sandbox's own ``call`` argument.)
    """
    target = target_class
    values = [float(v) for v in logits]
    check(values, target)
    z = torch.tensor([values])
    correct = _evaluate(z, target, softmax_first=False)
    probs = z.softmax(dim=1)[0]
    p_minus_y = probs - nn.functional.one_hot(torch.tensor(target), len(values)).float()
    grad = torch.tensor(correct.grad)
    return LogitsResult(
        logits=values,
        target=target,
        probs=probs.tolist(),
        p_minus_y=p_minus_y.tolist(),
        max_diff=float((grad - p_minus_y).abs().max()),
        grad_matches=bool(torch.allclose(grad, p_minus_y, atol=1e-6)),
        correct=correct,
        softmax_first=_evaluate(z, target, softmax_first=True),
        push=PUSH,
        active="softmax_first" if softmax_first else "correct",
        sweep=_sweep(z, target),
    )
