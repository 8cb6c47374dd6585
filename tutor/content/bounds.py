"""The value of a declared-input bound: a number, or arithmetic of params such as ``j - 1``."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

__all__ = ["bound_value"]

_OPS: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv}  # fmt: skip


def bound_value(bound: int | float | str, names: dict[str, Any]) -> int | float:
    """A ``range`` end or ``sum``: a number, or an expression of ``names`` (``"j - 1"``).

    Only names, numbers, ``+ - * //`` and parentheses are read; ValueError otherwise."""
    if isinstance(bound, int | float) and not isinstance(bound, bool):
        return bound
    try:
        tree = ast.parse(str(bound).strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"`{bound}` is not a number or an expression such as `j - 1`") from None
    return _eval(tree, names, str(bound))


def _eval(node: ast.AST, names: dict[str, Any], text: str) -> int | float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.Name):
        value = names.get(node.id)
        if isinstance(value, bool) or not isinstance(value, int | float):
            known = ", ".join(sorted(k for k, v in names.items() if isinstance(v, int | float)))
            raise ValueError(f"`{node.id}` in `{text}` is not a numeric param (known: {known})")
        return value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, names, text)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left, names, text), _eval(node.right, names, text))
    raise ValueError(f"`{text}`: only params, numbers, + - * // and parentheses are allowed")
