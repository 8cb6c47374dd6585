"""The trials of a code check, as data (torch-free): which inputs an answer is called on.

A check's trials come in this order: its literal ``cases`` (every attempt, first), then for each
entry in ``edges`` a trial with that param at its smallest size (0, or the entry's ``min``) and
one at the next, then ``trials`` random ones.
Each trial draws the check's ``params`` from its own seed (``variants.trial_seed``); the names in
``distinct`` are redrawn until they differ, so a transposed answer cannot pass by luck. A tensor
argument's declared constraints (``range``, ``sorted``, ``unique``, ``sum``, ``density``) travel
with its spec, their ends already worked out from the params; the runtime
(``tutor.probes.grade_inputs``) draws values that respect them.
"""

from __future__ import annotations

from typing import Any

from tutor.content.bounds import bound_value
from tutor.content.models import Check, TensorArg
from tutor.content.template import placeholders
from tutor.content.wording import listed
from tutor.grading.variants import draw_params, render, trial_seed

__all__ = ["AuthoringError", "bound_value", "trial_mix", "trial_specs"]

_DISTINCT_TRIES = 200


class AuthoringError(ValueError):
    """The drill cannot be graded as written (e.g. a tensor shape names an unknown param)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


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
    plan += [("edge", None, edge) for edge in check.edge_sizes]
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


def trial_mix(check: Check) -> str | None:
    """What a check's trials are, when not all random: ``"1 of the drill's own cases, 2 edge
    sizes and 8 random"`` (None: every trial is random)."""
    cases, edges = len(check.cases), len(check.edge_sizes)
    if not check.call or not (cases or edges):
        return None
    parts = [f"{cases} of the drill's own case{'s' if cases != 1 else ''}"] * bool(cases)
    parts += [f"{edges} edge size{'s' if edges != 1 else ''}"] * bool(edges)
    return listed([*parts, f"{check.trials} random"])
