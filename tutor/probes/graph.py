"""Runtime side of the graph viewer: run the learner's code (it defines ``model`` and ``args``),
export it with ``torch.export``, and report the graph, its signature and its op histogram before
and after ``run_decompositions()``."""

from __future__ import annotations

from collections import Counter
from typing import Any

import torch

from tutor.probes.data_graph import GraphNode, GraphView, Signature


class GraphInputError(ValueError):
    """The code cannot be exported; the message says why in plain words."""


def _namespace(code: str) -> dict[str, Any]:
    """Run ``code`` in fresh globals (seeded) and return them."""
    torch.manual_seed(0)
    ns: dict[str, Any] = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional}
    try:
        exec(compile(code, "<model code>", "exec"), ns)
    except SyntaxError as exc:
        raise GraphInputError(f"syntax error on line {exc.lineno}: {exc.msg}") from None
    return ns


def _model_and_args(ns: dict[str, Any]) -> tuple[torch.nn.Module, tuple[Any, ...]]:
    """``model`` and ``args`` from the learner's globals, checked."""
    model, args = ns.get("model"), ns.get("args")
    if not isinstance(model, torch.nn.Module):
        raise GraphInputError("define `model`, an nn.Module, e.g. model = nn.Linear(4, 2)")
    if isinstance(args, torch.Tensor):
        args = (args,)
    if not isinstance(args, (tuple, list)):
        raise GraphInputError("define `args`, the example inputs, e.g. args = (torch.randn(3, 4),)")
    return model, tuple(args)


def histogram(program: Any) -> dict[str, int]:
    """How often each ``call_function`` target appears, in graph order."""
    nodes = program.graph.nodes
    return dict(Counter(str(n.target) for n in nodes if n.op == "call_function"))


def graph(code: str) -> GraphView:
    """Export the ``model`` that ``code`` defines on its ``args``; the graph as data."""
    model, args = _model_and_args(_namespace(code))
    try:
        program = torch.export.export(model, args)
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [""])[0]
        raise GraphInputError(f"torch.export failed: {type(exc).__name__}: {first}") from None
    sig = program.graph_signature
    return GraphView(
        ops=histogram(program),
        decomposed_ops=histogram(program.run_decompositions()),
        signature=Signature(
            parameters=list(sig.parameters),
            buffers=list(sig.buffers),
            user_inputs=list(sig.user_inputs),
            user_outputs=[str(o) for o in sig.user_outputs],
        ),
        nodes=[GraphNode(name=n.name, op=n.op, target=str(n.target)) for n in program.graph.nodes],
    )
