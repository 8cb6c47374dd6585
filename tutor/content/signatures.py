"""The signatures of the functions a piece of code defines at its top level (torch-free):
what a drill that ``uses`` earlier drills may call, shown without the bodies."""

from __future__ import annotations

import ast

__all__ = ["signatures"]


def signatures(code: str) -> list[str]:
    """``["ones(i)", "pad_to(a, i, j)"]`` for the top-level ``def``s of ``code`` (none when it
    does not parse)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = ast.unparse(node.args)
            out.append(f"{node.name}({args})")
    return out
