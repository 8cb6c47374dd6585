"""Probe of the training-loop debugger: run the five-line loop for real and record every line.

The setup code and the five loop lines are source strings that are compiled and executed as
shown, so what the lab displays is exactly what ran. After each line the probe snapshots the
parameters, their ``.grad`` and ``loss``.
"""

from __future__ import annotations

import math
import warnings
from types import CodeType
from typing import Literal

import torch
from torch import nn
from torch.nn import functional as F

from tutor.probes.data_loop_trace import (
    BUGS,
    CLASSIFY_ONLY,
    PROBLEMS,
    CriterionInput,
    LoopTrace,
    Snapshot,
    Step,
    diagnose,
)

LINE_X = [-2.0, -1.5, -1.0, -0.5, 0.5, 1.0, 1.5, 2.0]
DEFAULT_LR = {"line": 0.1, "classify": 0.5}
HIGH_LR = {"line": 1.5, "classify": 60.0}
DEFAULT_STEPS = {"line": 200, "classify": 200}
MAX_STEPS = 5000


def _float(value: object) -> float:
    """A number the loop's code left in its namespace (a Python number or a one-element
    tensor), as a float."""
    if isinstance(value, int | float | torch.Tensor):
        return float(value)
    raise TypeError(f"expected a number, got {type(value).__name__}")


def _num(value: float) -> float | None:
    """A float32 number as a short JSON float (7 significant digits); None when not finite."""
    return float(f"{value:.7g}") if math.isfinite(value) else None


def _loop_lines(bug: str) -> list[str]:
    """The five lines as they run with ``bug`` switched on."""
    lines = [
        "optimizer.zero_grad()",
        "out = model(x)",
        "loss = criterion(out, y)",
        "loss.backward()",
        "optimizer.step()",
    ]
    if bug == "no_zero_grad":
        lines[0] = "# optimizer.zero_grad()  (forgotten)"
    elif bug == "softmax_into_ce":
        lines[2] = "loss = criterion(out.softmax(dim=1), y)"
    elif bug == "wrong_loss":
        lines[2] = "loss = criterion(out, y.float().unsqueeze(1))"
    elif bug == "step_before_backward":
        lines[3], lines[4] = lines[4], lines[3]
    return lines


def _setup_lines(problem: str, bug: str, lr: float) -> list[str]:
    """The code that builds model, criterion and optimizer."""
    if problem == "line":
        model = [
            "model = nn.Linear(1, 1)",
            "nn.init.zeros_(model.weight); nn.init.zeros_(model.bias)",
        ]
        criterion = "criterion = nn.MSELoss()"
    else:
        model = [
            "torch.manual_seed(0)",
            "model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 3))",
        ]
        criterion = (
            "criterion = nn.L1Loss()"
            if bug == "wrong_loss"
            else "criterion = nn.CrossEntropyLoss()"
        )
    return [*model, criterion, f"optimizer = torch.optim.SGD(model.parameters(), lr={lr!r})"]


def _eval_lines(bug: str) -> list[str]:
    """How the classifier is evaluated on held-out data."""
    lines = [
        "model.eval()",
        "with torch.no_grad():",
        "    logits = model(x_eval)",
        "model.train()",
        "eval_loss = F.cross_entropy(logits, y_eval)",
        "acc = (logits.argmax(1) == y_eval).float().mean()",
    ]
    if bug == "no_eval":
        lines[0] = "# model.eval()  (forgotten)"
    return lines


def _line_data() -> dict[str, torch.Tensor]:
    x = torch.tensor(LINE_X).unsqueeze(1)
    return {"x": x, "y": 3 * x - 1}


def _blobs(n_per_class: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Three overlapping 2-D Gaussian blobs around the vertices of a triangle."""
    centres = torch.tensor([[0.0, 2.0], [-1.7, -1.0], [1.7, -1.0]])
    y = torch.arange(3).repeat_interleave(n_per_class)
    x = centres[y] + torch.randn(len(y), 2, generator=generator)
    return x, y


def _classify_data() -> dict[str, torch.Tensor]:
    generator = torch.Generator().manual_seed(1234)
    x, y = _blobs(60, generator)
    x_eval, y_eval = _blobs(60, generator)
    return {"x": x, "y": y, "x_eval": x_eval, "y_eval": y_eval}


def _describe(data: dict[str, torch.Tensor]) -> str:
    """What x and y hold, read off the tensors."""
    x, y = data["x"], data["y"]
    if "x_eval" not in data:
        xs = ", ".join(f"{v:g}" for v in x.flatten().tolist())
        return f"x = [{xs}], y = 3x - 1 ({len(x)} points, one batch)"
    counts = torch.bincount(y).tolist()
    return (
        f"x: {len(x)} points in {x.shape[1]}-D from {len(counts)} seeded blobs "
        f"({'/'.join(map(str, counts))} per class), y: class index; "
        f"{len(data['x_eval'])} more held out for evaluation"
    )


def _snapshot(model: nn.Module, kind: str, loss: object) -> Snapshot:
    params: list[float | None] = []
    grads: list[float | None] = []
    for p in model.parameters():
        value = p.detach().flatten()[0] if kind == "value" else p.detach().norm()
        params.append(_num(float(value)))
        if p.grad is None:
            grads.append(None)
        else:
            g = p.grad.flatten()[0] if kind == "value" else p.grad.norm()
            grads.append(_num(float(g)))
    loss_value = _num(float(loss.detach())) if isinstance(loss, torch.Tensor) else None
    has_grad = [p.grad is not None for p in model.parameters()]
    return Snapshot(params=params, grads=grads, has_grad=has_grad, loss=loss_value)


def _grad_norm(model: nn.Module) -> float | None:
    grads = [p.grad.flatten() for p in model.parameters() if p.grad is not None]
    return _num(float(torch.cat(grads).norm())) if grads else None


def _accuracy(out: torch.Tensor, y: torch.Tensor) -> float:
    return float((out.argmax(1) == y).float().mean())


def _step(
    ns: dict[str, object],
    code: list[CodeType],
    evaluate: CodeType | None,
    kind: str,
    index: int,
) -> Step:
    """Run the five lines once (then the evaluation, if any), snapshotting after each line."""
    model = ns["model"]
    assert isinstance(model, nn.Module)
    states = []
    for compiled in code:
        exec(compiled, ns)
        states.append(_snapshot(model, kind, ns.get("loss")))
    loss, out = ns["loss"], ns["out"]
    assert isinstance(loss, torch.Tensor) and isinstance(out, torch.Tensor)
    step = Step(
        index=index, states=states, loss=_num(float(loss.detach())), grad_norm=_grad_norm(model)
    )
    if evaluate is not None:
        y = ns["y"]
        assert isinstance(y, torch.Tensor)
        step.accuracy = _accuracy(out, y)
        exec(evaluate, ns)
        step.eval_accuracy = _num(_float(ns["acc"]))
        step.eval_loss = _num(_float(ns["eval_loss"]))
    return step


def trace(
    problem: str = "line", bug: str = "none", lr: float | None = None, steps: int | None = None
) -> LoopTrace:
    """Run the five-line loop on ``problem`` with ``bug`` switched on; record every line."""
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}: choose one of {', '.join(PROBLEMS)}")
    if bug not in BUGS:
        raise ValueError(f"unknown bug {bug!r}: choose one of {', '.join(BUGS)}")
    if bug in CLASSIFY_ONLY and problem != "classify":
        raise ValueError(f"the bug {bug!r} needs a classifier: choose the problem 'classify'")
    if lr is None:
        lr = HIGH_LR[problem] if bug == "lr_too_high" else DEFAULT_LR[problem]
    lr = float(lr)
    if not math.isfinite(lr) or lr <= 0:
        raise ValueError(f"the learning rate must be a positive number, not {lr}")
    steps = DEFAULT_STEPS[problem] if steps is None else int(steps)
    if not 1 <= steps <= MAX_STEPS:
        raise ValueError(f"steps must be between 1 and {MAX_STEPS}, not {steps}")

    torch.set_num_threads(1)
    kind: Literal["value", "norm"] = "value" if problem == "line" else "norm"
    data = _line_data() if problem == "line" else _classify_data()
    setup, lines = _setup_lines(problem, bug, lr), _loop_lines(bug)
    ns: dict[str, object] = {"torch": torch, "nn": nn, "F": F, **data}
    exec(compile("\n".join(setup), "<setup>", "exec"), ns)
    model, criterion = ns["model"], ns["criterion"]
    assert isinstance(model, nn.Module) and isinstance(criterion, nn.Module)

    seen: dict[str, torch.Tensor] = {}
    criterion.register_forward_pre_hook(lambda _m, args: seen.update(input=args[0].detach()))
    code = [compile(line, f"<line {i + 1}>", "exec") for i, line in enumerate(lines)]
    evaluate = compile("\n".join(_eval_lines(bug)), "<eval>", "exec") if kind == "norm" else None
    initial = _snapshot(model, kind, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = [_step(ns, code, evaluate, kind, index) for index in range(steps)]

    result = LoopTrace(
        problem=problem,
        bug=bug,
        lr=lr,
        data=_describe(data),
        setup=setup,
        lines=lines,
        eval_lines=_eval_lines(bug) if evaluate is not None else [],
        param_kind=kind,
        param_names=[
            {"weight": "w", "bias": "b"}.get(n, n) if kind == "value" else n
            for n, _ in model.named_parameters()
        ],
        classes=3 if problem == "classify" else 0,
        initial=initial,
        steps=records,
        criterion=type(criterion).__name__,
        warnings=sorted({str(w.message) for w in caught}),
    )
    if evaluate is not None:
        result.eval_repeat = []
        for _ in range(2):
            exec(evaluate, ns)
            result.eval_repeat.append(_num(_float(ns["eval_loss"])))
        given = seen["input"]
        result.criterion_input = CriterionInput(
            minimum=_num(float(given.min())),
            maximum=_num(float(given.max())),
            row_sum=_num(float(given.sum(dim=1).mean())) if given.dim() == 2 else None,
        )
    result.diagnosis = diagnose(result)
    return result
