"""The trials of a code check, as data (torch-free): which inputs an answer is called on.

A check's trials come in this order: its literal ``cases`` (every attempt, first), then for each
name in ``edges`` a trial with that param at 0 and one with it at 1, then ``trials`` random ones.
Each trial draws the check's ``params`` from its own seed (``variants.trial_seed``); the names in
``distinct`` are redrawn until they differ, so a transposed answer cannot pass by luck. A tensor
argument's declared constraints (``range``, ``sorted``, ``unique``, ``sum``, ``density``) travel
with its spec, their ends already worked out from the params; the runtime
(``tutor.probes.grade_inputs``) draws values that respect them.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from tutor.content.models import Check, TensorArg
from tutor.content.template import placeholders
from tutor.grading.variants import draw_params, render, trial_seed

__all__ = ["AuthoringError", "bound_value", "trial_specs"]

_DISTINCT_TRIES = 200
_OPS: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv}  # fmt: skip


class AuthoringError(ValueError):
    """The drill cannot be graded as written (e.g. a tensor shape names an unknown param)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


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


def _value(value: Any, params: dict[str, Any]) -> Any:
    if isinstance(value, str):
        names = placeholders(value)
        if len(names) == 1 and value.strip() == "{" + next(iter(names)) + "}":
            name = next(iter(names))
            if name in params:
                return params[name]
        return render(value, params)
    if isinstance(value, list):
        return [_value(v, params) for v in value]
    if isinstance(value, dict):
        return {k: _value(v, params) for k, v in value.items()}
    return value


def _draw(check: Check, seed: int, t: int) -> dict[str, Any]:
    """The check's params for trial ``t``, redrawn until the ``distinct`` ones differ."""
    drawn = draw_params(check.params, trial_seed(seed, t))
    if len(check.distinct) < 2:
        return drawn
    for k in range(_DISTINCT_TRIES):
        values = [drawn.get(n) for n in check.distinct]
        if len(set(map(repr, values))) == len(values):
            return drawn
        drawn = draw_params(check.params, trial_seed(seed, t) * 7919 + k + 1)
    names = ", ".join(check.distinct)
    raise AuthoringError("check.distinct", f"{names} cannot be drawn all different: widen "
                         "their ranges")  # fmt: skip


def _tensor(name: str, arg: TensorArg, tp: dict[str, Any]) -> dict[str, Any]:
    shape = []
    for dim in arg.tensor:
        if isinstance(dim, str):
            if dim not in tp:
                raise AuthoringError(
                    f"check.args.{name}.tensor", f"`{dim}` is not a declared param"
                )
            dim = tp[dim]
        shape.append(int(dim))
    spec: dict[str, Any] = {"tensor": shape, "dtype": arg.dtype, "requires_grad": arg.requires_grad}
    try:
        if arg.range is not None:
            spec["range"] = [bound_value(b, tp) for b in arg.range]
        if arg.sum is not None:
            spec["sum"] = int(bound_value(arg.sum, tp))
    except ValueError as exc:
        key = "range" if arg.range is not None else "sum"
        raise AuthoringError(f"check.args.{name}.{key}", str(exc)) from None
    if arg.sorted:
        spec["sorted"] = True
    if arg.unique:
        spec["unique"] = True
    if arg.density is not None:
        spec["density"] = arg.density
    return spec


def _args(check: Check, tp: dict[str, Any], case: dict[str, Any] | None) -> dict[str, Any]:
    values = {n: a.value for n, a in check.args.items() if not isinstance(a, TensorArg)}
    names = {**tp, **{n: _value(v, tp) for n, v in values.items()}}
    args: dict[str, Any] = {}
    for name, arg in check.args.items():
        if case is not None and name in case:
            if isinstance(arg, TensorArg):
                args[name] = {"literal": case[name], "dtype": arg.dtype,
                              "requires_grad": arg.requires_grad}  # fmt: skip
            else:
                args[name] = {"value": case[name]}
        elif isinstance(arg, TensorArg):
            args[name] = _tensor(name, arg, names)
        else:
            args[name] = {"value": names[name]}
    return args


def trial_specs(check: Check, params: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """The trial specs of ``check`` for the attempt ``seed`` (``params``: the drill's drawn
    params): ``{"seed", "params", "args", "kind"}`` with ``kind`` one of case, edge, random."""
    if not check.call:
        return []
    plan: list[tuple[str, dict[str, Any] | None, tuple[str, int] | None]] = []
    plan += [("case", case, None) for case in check.cases]
    plan += [("edge", None, (name, size)) for name in check.edges for size in (0, 1)]
    plan += [("random", None, None)] * check.trials
    out = []
    for t, (kind, case, edge) in enumerate(plan):
        drawn = draw_params(check.params, trial_seed(seed, t)) if kind != "random" else None
        tp = {**params, **(drawn if drawn is not None else _draw(check, seed, t))}
        if edge is not None:
            tp[edge[0]] = edge[1]
        spec = {"seed": trial_seed(seed, t), "params": tp, "args": _args(check, tp, case)}
        out.append({**spec, "kind": kind})
    return out
