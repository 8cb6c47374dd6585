"""`tutor lab logits [--logits "2,1,0.1"] [--target 0] [--softmax-first] [--json]`, headless."""

from __future__ import annotations

from typing import Any

from tutor.commands.labs.common import lab_command
from tutor.probes.data_logits import LogitsResult

#: what `tutor lab logits --help` says it does
HELP = "Softmax, cross-entropy and its gradient for some logits, by autograd."


def summary(data: LogitsResult) -> dict[str, Any]:
    """The JSON face: the active mode's loss and gradient up front, both modes in full."""
    shown = data.shown
    return {
        "logits": data.logits,
        "target": data.target,
        "softmax_first": data.active == "softmax_first",
        "probs": data.probs,
        "loss": shown.loss,
        "grad": shown.grad,
        "grad_norm": shown.grad_norm,
        "floor": shown.floor,
        "p_minus_y": data.p_minus_y,
        "grad_matches_p_minus_y": data.grad_matches,
        "max_diff": data.max_diff,
        "correct": data.correct.model_dump(),
        "softmax_then_ce": data.softmax_first.model_dump(),
        "push": data.push,
    }


def _vec(values: list[float]) -> str:
    return "[" + ", ".join(f"{v:+.4f}" for v in values) + "]"


def render(data: LogitsResult) -> str:
    """A readable rendering of both ways of computing the loss."""
    c, s = data.correct, data.softmax_first
    verdict = "equals" if data.grad_matches else "differs from"
    return "\n".join(
        [
            f"logits {_vec(data.logits)}  target {data.target}",
            f"softmax p            {_vec(data.probs)}",
            f"CrossEntropyLoss(z)  loss {c.loss:.4f}  grad {_vec(c.grad)}  |grad| {c.grad_norm:.4f}",
            f"  autograd's gradient {verdict} p - y = {_vec(data.p_minus_y)} (max diff {data.max_diff:.1e})",
            f"CE(softmax(z))       loss {s.loss:.4f}  grad {_vec(s.grad)}  |grad| {s.grad_norm:.4f}",
            f"  gradient {s.grad_norm / c.grad_norm:.2f}× the correct one"
            if c.grad_norm
            else "  the correct gradient is zero",
            f"floor (logits pushed to ±{data.push:g}): correct {c.floor:.4f}, softmax first {s.floor:.4f}",
        ]
    )


logits = lab_command("logits", HELP, render, summary)
