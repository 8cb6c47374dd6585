"""`tutor lab graph CODE [--json]`: the graph viewer, headless."""

from __future__ import annotations

from tutor.commands.labs.common import lab_command
from tutor.probes.data_graph import GraphView

#: what `tutor lab graph --help` says it does
HELP = "Export the `model` CODE defines on its `args` and show the ATen graph."


def render(data: GraphView) -> str:
    """The graph, its signature and the decomposition diff as plain text."""
    sig = data.signature
    lines = ["graph (torch.export):"]
    for node in data.nodes:
        role = data.role(node.name)
        lines.append(
            f"  {node.op:14} {node.name:18} {node.target}" + (f"  [{role}]" if role else "")
        )
    lines.append("signature:")
    lines += [
        f"  parameters:   {', '.join(sig.parameters) or '-'}",
        f"  buffers:      {', '.join(sig.buffers) or '-'}",
        f"  user inputs:  {', '.join(sig.user_inputs) or '-'}",
        f"  user outputs: {', '.join(sig.user_outputs) or '-'}",
    ]
    lines.append("ops: exported -> after run_decompositions()")
    for change in data.diff():
        lines.append(f"  {change.target:48} {change.before:>3} -> {change.after}")
    return "\n".join(lines)


graph = lab_command("graph", HELP, render)
