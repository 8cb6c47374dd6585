"""`tutor lab tape CODE [--json]`: the autograd tape stepper, headless."""

from __future__ import annotations

from typing import Any

from tutor.commands.labs.common import lab_command
from tutor.probes.data_tape import Tape, fmt

#: what `tutor lab tape --help` says it does
HELP = "Step the backward pass of CODE (forward code ending in a scalar assigned to a name)."


def contract(data: Tape) -> dict[str, Any]:
    """The JSON shape of the CLI contract (plus the extra detail the lab shows)."""
    out = data.model_dump(mode="json")
    out["nodes"] = [{**node, "label": data.label(node["id"])} for node in out["nodes"]]
    return out


def render(data: Tape) -> str:
    """The backward pass as readable steps."""
    lines = [f"{data.output} = {data.value:g}", "graph (node -> its next_functions):"]
    for node in data.nodes:
        nxt = ", ".join("-" if n is None else data.label(n) for n in node.next)
        lines.append(f"  #{node.id} {data.label(node.id)} -> [{nxt}]")
    lines.append("backward, in the order autograd ran it:")
    for k, node_id in enumerate(data.order, 1):
        node = data.node(node_id)
        arrive = ", ".join("None" if g is None else g.text() for g in node.grad_in)
        leave = ", ".join("None" if g is None else g.text() for g in node.grad_out)
        lines.append(
            f"  {k}. {data.label(node_id)}: in {arrive}" + (f" -> out {leave}" if leave else "")
        )
    for name, leaf in data.leaves.items():
        check = ""
        if leaf.fd_ok is not None:
            verdict = "agrees" if leaf.fd_ok else "DISAGREES"
            check = f"  finite differences {fmt(leaf.fd_grad)} {verdict} (max error {leaf.fd_max_error:.2g})"
        lines.append(f"{name}.grad = {fmt(leaf.grad)}{check}")
    if data.second_backward and not data.second_backward.ok:
        lines.append(f"a second backward(): RuntimeError: {data.second_backward.error}")
    if data.no_grad:
        lines.append(
            f"under torch.no_grad(): requires_grad={data.no_grad.requires_grad}, backward: {data.no_grad.error}"
        )
    return "\n".join(lines)


tape = lab_command("tape", HELP, render, contract)
