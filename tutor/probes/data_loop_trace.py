"""Data of the training-loop debugger (torch-free): a recorded run of the five-line loop.

The probe ``tutor.probes.loop_trace`` executes the loop in the sandbox and returns a
:class:`LoopTrace`; the lab screen, the CLI and the tests read it. Non-finite numbers
(an exploding run) are stored as ``None`` so the data stays valid JSON.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from tutor.probes import lab_defaults as defaults

PROBLEMS: tuple[str, ...] = defaults.LOOP_PROBLEMS
BUGS: tuple[str, ...] = defaults.LOOP_BUGS
#: bugs that only make sense for a classifier (softmax, dropout, class indices)
CLASSIFY_ONLY: frozenset[str] = frozenset({"softmax_into_ce", "no_eval", "wrong_loss"})

Number = float | None


class Snapshot(BaseModel):
    """The loop's state right after one line ran."""

    params: list[Number]
    """per parameter (see ``LoopTrace.param_names``): value (``line``) or L2 norm (``classify``)."""
    grads: list[Number]
    """each parameter's ``.grad`` the same way (None when not finite or absent)."""
    has_grad: list[bool] = Field(default_factory=list)
    """whether each parameter's ``.grad`` exists (False: ``.grad is None``)."""
    loss: Number = None
    """the value of ``loss`` at that moment (None before it exists)."""


class Step(BaseModel):
    """One pass through the five lines."""

    index: int
    states: list[Snapshot]
    """the state after each of the five lines, in the order they ran."""
    loss: Number
    grad_norm: Number
    """L2 norm of all gradients right after ``loss.backward()``."""
    accuracy: Number = None
    """training accuracy of this step's forward pass (``classify``)."""
    eval_accuracy: Number = None
    """accuracy on held-out data after this step (``classify``)."""
    eval_loss: Number = None
    """cross-entropy on held-out data after this step (``classify``)."""


class CriterionInput(BaseModel):
    """What the criterion received at the last step (to spot probabilities given as logits)."""

    minimum: Number
    maximum: Number
    row_sum: Number
    """mean sum over the class dimension (1.0 for softmax output)."""


class Finding(BaseModel):
    """The diagnosis: the symptom seen in the numbers, its likely cause and the first fix."""

    level: Literal["ok", "warn", "bad"]
    symptom: str
    cause: str
    fix: str
    evidence: str = ""


class LoopTrace(BaseModel):
    """A whole run of the loop on one built-in problem, with one bug switched on (or none)."""

    problem: str
    bug: str
    lr: float
    data: str = ""
    """what ``x`` and ``y`` hold, in words (read off the tensors)."""
    setup: list[str]
    """the code that built model, criterion and optimizer (it ran as shown)."""
    lines: list[str]
    """the five loop lines, in the order they ran (they ran as shown)."""
    eval_lines: list[str] = Field(default_factory=list)
    """the evaluation code (``classify``)."""
    param_kind: Literal["value", "norm"]
    """``value``: the parameters are scalars shown as is; ``norm``: tensors shown by L2 norm."""
    param_names: list[str]
    classes: int = 0
    initial: Snapshot
    steps: list[Step]
    criterion: str
    criterion_input: CriterionInput | None = None
    eval_repeat: list[Number] = Field(default_factory=list)
    """held-out loss of two evaluations of the final weights (equal when eval mode is on)."""
    warnings: list[str] = Field(default_factory=list)
    """the distinct warnings torch raised while the loop ran."""
    diagnosis: Finding | None = None
    """what the numbers of the whole run say (see :func:`diagnose`)."""

    @property
    def losses(self) -> list[Number]:
        """The loss of every step."""
        return [s.loss for s in self.steps]


def _fmt(value: float | None) -> str:
    return "nan" if value is None else f"{value:.4g}"


def _before(trace: LoopTrace, steps: list[Step], k: int, line: int) -> Snapshot:
    """The state just before ``line`` ran in step ``k``."""
    if line > 0:
        return steps[k].states[line - 1]
    return steps[k - 1].states[-1] if k > 0 else trace.initial


def _line_of(trace: LoopTrace, needle: str) -> int:
    return next(i for i, line in enumerate(trace.lines) if needle in line)


def _turns(losses: list[float]) -> int:
    """How often the loss curve changes direction (up/down)."""
    diffs = [b - a for a, b in zip(losses, losses[1:], strict=False) if b != a]
    return sum(1 for a, b in zip(diffs, diffs[1:], strict=False) if (a > 0) != (b > 0))


def _exploding(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    first = steps[0].loss
    broken = next((s.index for s in steps if s.loss is None), None)
    norms = [s.grad_norm for s in steps if s.grad_norm is not None]
    evidence = f"loss {_fmt(first)} at step 1; largest grad norm {_fmt(max(norms, default=None))}"
    fix = "lower the lr 10×, or clip: nn.utils.clip_grad_norm_(model.parameters(), 1.0)"
    cause = "lr too high or exploding gradients (or a log(0))"
    if broken is not None:
        return Finding(
            level="bad",
            symptom=f"loss became inf/NaN at step {broken + 1}",
            cause=cause,
            fix=fix,
            evidence=evidence,
        )
    last = steps[-1].loss
    if first is not None and last is not None and len(steps) >= 3 and last > 10 * first:
        return Finding(
            level="bad",
            symptom=f"loss grows ×{last / first:.3g} in {len(steps)} steps",
            cause=cause,
            fix=fix,
            evidence=evidence,
        )
    return None


def _never_steps(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    if len(steps) < 2 or any(s.states[-1].params != trace.initial.params for s in steps):
        return None
    produced = any(g for s in steps for st in s.states for g in st.grads)
    if not produced:
        return None
    at = _line_of(trace, "optimizer.step()")
    state = _before(trace, steps, 1, at)
    seen = ", ".join(
        f"{k}={_fmt(v) if has else 'None'}"
        for k, v, has in zip(trace.param_names, state.grads, state.has_grad, strict=True)
    )
    return Finding(
        level="bad",
        symptom=f"loss flat at {_fmt(steps[-1].loss)}: the parameters never changed",
        cause="optimizer.step() finds no gradient: it runs before loss.backward() (or never)",
        fix="order the lines: zero_grad, forward, loss, backward, step",
        evidence=f"when optimizer.step() ran, .grad was {seen or 'empty'}",
    )


def _accumulating(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    at = _line_of(trace, ".backward()")
    for k in range(1, len(steps)):
        grads = _before(trace, steps, k, at).grads
        stale = {n: g for n, g in zip(trace.param_names, grads, strict=True) if g}
        if not stale:
            continue
        losses = [s.loss for s in steps if s.loss is not None]
        turns = _turns(losses)
        name, value = next(iter(stale.items()))
        symptom = (
            f"loss rings: up and down {turns} times, between {_fmt(min(losses))} and {_fmt(max(losses))}"
            if turns >= 2
            else "gradients are not reset between steps"
        )
        return Finding(
            level="bad",
            symptom=symptom,
            cause="gradients accumulate (no zero_grad): step k applies g1+…+gk",
            fix="call optimizer.zero_grad() at the top of every step",
            evidence=f"{name}.grad was {_fmt(value)}, not 0, when loss.backward() ran at step {k + 1}",
        )
    return None


def _probabilities_into_ce(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    given = trace.criterion_input
    if trace.criterion != "CrossEntropyLoss" or given is None or given.row_sum is None:
        return None
    if given.minimum is None or given.maximum is None:
        return None
    if given.minimum < 0 or given.maximum > 1 or abs(given.row_sum - 1) > 1e-3:
        return None
    floor = math.log(1 + (trace.classes - 1) / math.e)
    return Finding(
        level="bad",
        symptom=f"loss {'stalls at' if len(steps) >= 20 else 'is'} {_fmt(steps[-1].loss)};"
        f" it can never go below {floor:.3f}",
        cause="softmax before CrossEntropyLoss, which applies log-softmax itself",
        fix="pass the raw logits: loss = criterion(out, y)",
        evidence=f"the criterion got probabilities: values in [{_fmt(given.minimum)}, "
        f"{_fmt(given.maximum)}], each row summing to {_fmt(given.row_sum)}",
    )


def _at_chance(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    accs = [s.accuracy for s in steps[-10:] if s.accuracy is not None]
    if not trace.classes or len(steps) < 20 or not accs:
        return None
    acc, chance = sum(accs) / len(accs), 1 / trace.classes
    if acc > chance + 0.15:
        return None
    first, last = steps[0].loss, steps[-1].loss
    falling = first is not None and last is not None and last < 0.9 * first
    return Finding(
        level="bad",
        symptom=f"accuracy stuck near chance: {acc:.0%} (chance {chance:.0%})",
        cause="the loss falls but does not measure the task: wrong loss or labels out of sync"
        if falling
        else "softmax into CE, labels out of sync, or step never called",
        fix="CrossEntropyLoss on raw logits and class indices; print out.shape, y.shape"
        if falling
        else "print the gradients and check the five lines",
        evidence=f"loss {_fmt(first)} → {_fmt(last)} ({trace.criterion})"
        + (f"; torch warned: {trace.warnings[0]}" if trace.warnings else ""),
    )


def _eval_in_train_mode(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    runs = [a for a in trace.eval_repeat if a is not None]
    if len(runs) < 2 or runs[0] == runs[1]:
        return None
    return Finding(
        level="warn",
        symptom=f"two evaluations of the same weights disagree: loss {runs[0]:.4g} vs {runs[1]:.4g}",
        cause="the model is still in train mode during evaluation: dropout is active",
        fix="model.eval() and torch.no_grad() to evaluate, model.train() after",
        evidence="the same weights, the same data, a different answer each time",
    )


def _train_good_test_bad(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    last = steps[-10:]
    train = [s.accuracy for s in last if s.accuracy is not None]
    held = [s.eval_accuracy for s in last if s.eval_accuracy is not None]
    if not train or not held:
        return None
    gap = sum(train) / len(train) - sum(held) / len(held)
    if gap < 0.15:
        return None
    return Finding(
        level="warn",
        symptom=f"train accuracy beats held-out accuracy by {gap:.0%}",
        cause="overfitting, or evaluation that never called model.eval()",
        fix="more data or regularisation; evaluate under model.eval() and torch.no_grad()",
        evidence=f"last steps: train {train[-1]:.0%}, eval {held[-1]:.0%}",
    )


def _flat(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    first, last = steps[0].loss, steps[-1].loss
    if len(steps) < 10 or first is None or last is None or abs(first - last) > 0.01 * first:
        return None
    return Finding(
        level="warn",
        symptom=f"loss flat: {_fmt(first)} → {_fmt(last)} in {len(steps)} steps",
        cause="lr too small, or a loss that does not reach the parameters",
        fix="try an lr 10× larger (an lr finder sweeps it); check the loss",
        evidence=f"lr {trace.lr:g}",
    )


def _slow(trace: LoopTrace, steps: list[Step]) -> Finding | None:
    first, last = steps[0].loss, steps[-1].loss
    if len(steps) < 20 or first is None or last is None or last < 0.5 * first:
        return None
    return Finding(
        level="warn",
        symptom=f"loss falls slowly: {_fmt(first)} → {_fmt(last)} in {len(steps)} steps",
        cause="lr too small (or too few steps)",
        fix="try an lr 10× larger, or run more steps",
        evidence=f"lr {trace.lr:g}; only {1 - last / first:.0%} lower",
    )


RULES = (
    _exploding,
    _never_steps,
    _accumulating,
    _probabilities_into_ce,
    _at_chance,
    _eval_in_train_mode,
    _train_good_test_bad,
    _flat,
    _slow,
)


def diagnose(trace: LoopTrace, upto: int | None = None) -> Finding:
    """Read the symptom off the numbers of the first ``upto`` steps (all when None).

    The rules look only at losses, parameters, gradients, accuracies and what the criterion
    received — never at which bug was switched on.
    """
    steps = trace.steps if upto is None else trace.steps[:upto]
    if not steps:
        return Finding(level="ok", symptom="no step has run yet", cause="", fix="")
    for rule in RULES:
        finding = rule(trace, steps)
        if finding is not None:
            return finding
    first, last = steps[0].loss, steps[-1].loss
    if len(steps) == 1:  # one loss is not a trend: "falls: 17.88 → 17.88" would claim one
        return Finding(
            level="ok",
            symptom=f"loss after the first step: {_fmt(last)}",
            cause="one step shows no trend yet",
            fix="step on to see whether it falls",
        )
    evidence = ""
    if trace.param_kind == "value":
        final = zip(trace.param_names, steps[-1].states[-1].params, strict=True)
        evidence = "now " + ", ".join(f"{name} = {_fmt(value)}" for name, value in final)
    if steps[-1].eval_accuracy is not None:
        evidence = (
            f"train accuracy {steps[-1].accuracy:.0%}, eval accuracy {steps[-1].eval_accuracy:.0%}"
        )
    return Finding(
        level="ok",
        symptom=f"loss falls: {_fmt(first)} → {_fmt(last)}",
        cause="the loop looks healthy",
        fix="next: compare train and eval numbers" if trace.classes else "",
        evidence=evidence,
    )
