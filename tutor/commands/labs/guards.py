"""`tutor lab guards CODE [--backend B] [--json]`: the guard viewer, headless."""

from __future__ import annotations

import click

from tutor.commands.labs.common import echo_lab, probe_data
from tutor.probes.data_guards import BACKENDS, GuardReport

#: the JSON contract's keys (the model carries two more the lab shows)
CONTRACT = ("graphs", "graph_breaks", "guards", "recompiles", "ops")


def contract(data: GuardReport) -> dict:
    """The JSON shape of the CLI contract."""
    return data.model_dump(mode="json", include=set(CONTRACT))


def render(data: GuardReport) -> str:
    """Graphs, breaks, guards, recompiles and ops as plain text."""
    lines = [
        f"first call: {data.graphs} graph(s), {len(data.graph_breaks)} break(s); "
        f"the {data.backend} backend compiled {data.compiles} graph(s) over all calls"
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


@click.command()
@click.argument("code")
@click.option("--backend", type=click.Choice(BACKENDS), default="eager", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the data as one JSON object.")
def guards(code: str, backend: str, as_json: bool) -> None:
    """Compile the `f` CODE defines and call it on each of CODE's `calls`, in order."""
    data = probe_data(GuardReport, "guards", code=code, backend=backend)
    echo_lab(data, as_json, render, contract)
