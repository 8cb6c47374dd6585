"""`tutor lab guards CODE [--backend B] [--json]`: the guard viewer, headless."""

from __future__ import annotations

from typing import Any

from tutor.commands.labs.common import lab_command
from tutor.content.wording import plural
from tutor.probes.data_guards import GuardReport

#: the JSON contract's keys (the model carries two more the lab shows)
CONTRACT = ("graphs", "graph_breaks", "guards", "recompiles", "ops")

#: what `tutor lab guards --help` says it does
HELP = "Compile the `f` CODE defines and call it on each of CODE's `calls`, in order."


def contract(data: GuardReport) -> dict[str, Any]:
    """The JSON shape of the CLI contract."""
    return data.model_dump(mode="json", include=set(CONTRACT))


def render(data: GuardReport) -> str:
    """Graphs, breaks, guards, recompiles and ops as plain text."""
    lines = [
        f"first call: {plural(data.graphs, 'graph')}, {plural(len(data.graph_breaks), 'break')}; "
        f"the {data.backend} backend compiled {plural(data.compiles, 'graph')} over all calls"
    ]
    for brk in data.graph_breaks:
        where = f"line {brk.line}" if brk.line else "somewhere"
        lines.append(f"  break at {where}: {brk.reason}")
    for i, ops in enumerate(data.ops):
        lines.append(f"  graph {i}: {', '.join(ops) or '(no ops)'}")
    lines.append("guards of the first compile:")
    lines += [f"  {g}" for g in data.guards]
    lines.append("recompiles:" if data.recompiles else "recompiles: none")
    lines += [f"  call {r.call}: {r.reason}" for r in data.recompiles]
    return "\n".join(lines)


guards = lab_command("guards", HELP, render, contract)
