"""`tutor lab loop [--problem P] [--bug B] [--lr LR] [--steps N] [--json]`: the loop debugger, headless."""

from __future__ import annotations

from typing import Any

from tutor.commands.labs.common import lab_command
from tutor.probes.data_loop_trace import LoopTrace

#: what `tutor lab loop --help` says it does
HELP = "Run the five-line training loop with a bug switched on, and diagnose it."


def summary(trace: LoopTrace) -> dict[str, Any]:
    """The JSON face of a run: losses, final parameters, diagnosis, per-step numbers."""
    last = trace.steps[-1].states[-1]
    params_after = [
        dict(zip(trace.param_names, s.states[-1].params, strict=True)) for s in trace.steps
    ]
    backward = next(i for i, line in enumerate(trace.lines) if ".backward()" in line)
    grads = [
        dict(zip(trace.param_names, s.states[backward].grads, strict=True)) for s in trace.steps
    ]
    data: dict[str, Any] = {
        "problem": trace.problem,
        "bug": trace.bug,
        "lr": trace.lr,
        "steps": len(trace.steps),
        "lines": trace.lines,
        "losses": trace.losses,
        "diagnosis": trace.diagnosis.model_dump() if trace.diagnosis else None,
        "params": params_after,
        "grads": grads,
        "grad_norms": [s.grad_norm for s in trace.steps],
        "warnings": trace.warnings,
    }
    if trace.param_kind == "value":
        data.update(dict(zip(trace.param_names, last.params, strict=True)))
    else:
        data["accuracy"] = [s.accuracy for s in trace.steps]
        data["eval_accuracy"] = [s.eval_accuracy for s in trace.steps]
        data["eval_repeat"] = trace.eval_repeat
    return data


def render(trace: LoopTrace) -> str:
    """A readable rendering: the loop, a few losses, final parameters, the diagnosis."""
    out = [f"problem {trace.problem}, bug {trace.bug}, lr {trace.lr:g}, {len(trace.steps)} steps"]
    out += [f"  {i + 1}  {line}" for i, line in enumerate(trace.lines)]
    n = len(trace.losses)
    marks = sorted({0, 1, 2, 3, 9, 49, 99, n - 1} & set(range(n)))
    out.append("loss: " + ", ".join(f"[{i + 1}] {_num(trace.losses[i])}" for i in marks))
    last = trace.steps[-1].states[-1]
    label = "" if trace.param_kind == "value" else "‖·‖ "
    out.append(
        "final "
        + label
        + ", ".join(f"{k}={_num(v)}" for k, v in zip(trace.param_names, last.params, strict=True))
    )
    if trace.diagnosis:
        d = trace.diagnosis
        out += [f"diagnosis: {d.symptom}", f"  cause: {d.cause}", f"  first fix: {d.fix}"]
        if d.evidence:
            out.append(f"  evidence: {d.evidence}")
    return "\n".join(out)


def _num(value: float | None) -> str:
    return "nan/inf" if value is None else f"{value:.6g}"


loop = lab_command("loop", HELP, render, summary)
