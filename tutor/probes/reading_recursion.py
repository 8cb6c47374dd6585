"""Recursion among an answer's own functions: a loop in disguise (torch-free)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.probes.reading_core import Reading

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _own_calls(fn: ast.AST) -> list[ast.Call]:
    """The calls in a function's body, not in the functions it defines."""
    calls: list[ast.Call] = []
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            calls.append(node)
        if not isinstance(node, _DEFS):
            stack.extend(ast.iter_child_nodes(node))
    return calls


def recursive_calls(r: Reading) -> list[ast.Call]:
    """Every call from one of the answer's functions to a function of the answer that calls
    back into the first one, directly or through others."""
    defs = [n for n in r.nodes if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    edges: dict[int, list[tuple[ast.Call, int]]] = {}
    for fn in defs:
        for call in _own_calls(fn):
            if isinstance(call.func, ast.Name):
                for b in r.ref(call.func).bindings:
                    if isinstance(b.node, ast.FunctionDef | ast.AsyncFunctionDef):
                        edges.setdefault(id(fn), []).append((call, id(b.node)))

    def reaches(start: int, goal: int) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo.extend(target for _, target in edges.get(here, []))
        return False

    return [call for fn, out in edges.items() for call, target in out if reaches(target, fn)]
