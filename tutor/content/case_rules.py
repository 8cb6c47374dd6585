"""Pack checks of a code check's literal ``cases`` against the inputs it declares (torch-free).

A case is tried on every attempt, so one that breaks what the check promises an answer (a
value out of ``range``, a row not ``sorted``, a repeat under ``unique``, a row that misses its
``sum``, the wrong share of True under ``density``, a shape that is not the declared one, a
float in an integer tensor) is reported at the case, naming the argument and the row.

The names in a shape or a ``range`` end take their values from the case itself: a dim of a
literal tensor fixes its param (``a: {tensor: [n]}`` given 3 values: ``n = 3``), a ``value``
argument the case gives fixes the param it stands for (``j: {value: "{j}"}``). A param the
case leaves to be drawn is tried at every value of its range, since any may be drawn.
"""

from __future__ import annotations

import ast
import itertools
from typing import Any

from tutor.content.bounds import bound_value
from tutor.content.check_rules import Report
from tutor.content.models import dtype_kind
from tutor.content.positions import Path

__all__ = ["check_cases"]

#: most combinations of drawn params a case is checked under
_MAX_COMBOS = 512


class _Bad(Exception):
    """What is wrong with a case (the message)."""


def _shape(value: Any, name: str) -> list[int]:
    """The shape of a nested list of scalars (a scalar: ``[]``); _Bad when it is ragged."""
    if not isinstance(value, list):
        if isinstance(value, int | float | bool):
            return []
        raise _Bad(f"`{name}` holds {value!r}, which is not a number")
    shapes = [_shape(v, name) for v in value]
    if any(s != shapes[0] for s in shapes[1:]):
        raise _Bad(f"`{name}` is ragged: its rows do not all have the same length")
    return [len(value), *(shapes[0] if shapes else [])]


def _rows(value: Any) -> list[list[Any]]:
    """The rows (last dim) of a nested list; a scalar is one row of one."""
    if not isinstance(value, list):
        return [[value]]
    if not value or not isinstance(value[0], list):
        return [value]
    return [row for v in value for row in _rows(v)]


def _bind(case: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    """The params the case fixes: tensor dims named by a param, and ``"{p}"`` value args."""
    fixed: dict[str, Any] = {}
    for name, arg in args.items():
        if name not in case or not isinstance(arg, dict):
            continue
        if "tensor" in arg and isinstance(arg["tensor"], list):
            shape = _shape(case[name], name)
            dims = arg["tensor"]
            if len(shape) != len(dims):
                raise _Bad(f"`{name}` has {len(shape)} dimensions; it is declared with "
                           f"{len(dims)} ({', '.join(map(str, dims)) or 'a 0-d tensor'})")  # fmt: skip
            for want, got in zip(dims, shape, strict=True):
                if isinstance(want, str):
                    if fixed.setdefault(want, got) != got:
                        raise _Bad(f"`{name}` makes `{want}` {got}, but the case already "
                                   f"makes it {fixed[want]}")  # fmt: skip
                elif want != got:
                    raise _Bad(f"`{name}` has size {got} where its shape declares {want}")
        elif isinstance(arg.get("value"), str) and arg["value"].strip().startswith("{"):
            param = arg["value"].strip()[1:-1]
            if fixed.setdefault(param, case[name]) != case[name]:
                raise _Bad(f"`{name}` is {case[name]!r}, but the case makes `{param}` "
                           f"{fixed[param]}")  # fmt: skip
    return fixed


def _values(args: dict[str, Any], case: dict[str, Any], names: dict[str, Any]) -> dict[str, Any]:
    """Every name a bound may read: params, then ``value`` args (the case's where given)."""
    out = dict(names)
    for name, arg in args.items():
        if isinstance(arg, dict) and "value" in arg:
            value = case.get(name, arg["value"])
            if isinstance(value, str) and value.strip()[1:-1] in names:
                value = names[value.strip()[1:-1]]
            out[name] = value
    return out


def _check_plain(name: str, arg: dict[str, Any], value: Any) -> None:
    """_Bad when the literal ``value`` breaks what ``arg`` declares, bounds aside."""
    kind = dtype_kind(str(arg.get("dtype", "float32")))
    flat = list(itertools.chain.from_iterable(_rows(value)))
    for x in flat:
        if kind == "bool" and not isinstance(x, bool):
            raise _Bad(f"`{name}` is a bool tensor but holds {x!r}")
        if kind == "int" and (isinstance(x, bool) or not isinstance(x, int)):
            raise _Bad(f"`{name}` is an integer tensor but holds {x!r}")
    for r, row in enumerate(_rows(value)):
        if arg.get("sorted") and any(a > b for a, b in itertools.pairwise(row)):
            raise _Bad(f"row {r} of `{name}` is not sorted: {row}")
        if arg.get("unique") and len(set(row)) < len(row):
            twice = next(x for x in row if row.count(x) > 1)
            raise _Bad(f"row {r} of `{name}` repeats {twice!r}")
    if isinstance(arg.get("density"), int | float) and kind == "bool":
        want = round(float(arg["density"]) * len(flat))
        if sum(flat) != want:
            raise _Bad(f"`{name}` has {sum(flat)} True of {len(flat)}; `density` "
                       f"{arg['density']} asks for {want}")  # fmt: skip


def _check_bounds(name: str, arg: dict[str, Any], value: Any, names: dict[str, Any]) -> None:
    """_Bad when ``value`` is outside its ``range`` or a row misses its ``sum``; ValueError
    when a bound reads a name ``names`` lacks."""
    flat = list(itertools.chain.from_iterable(_rows(value)))
    if isinstance(arg.get("range"), list) and len(arg["range"]) == 2:
        low, high = (bound_value(b, names) for b in arg["range"])
        for x in flat:
            if not low <= x <= high:
                where = "below" if x < low else "above"
                raise _Bad(f"`{name}` holds {x!r}, {where} its range [{low}, {high}]")
    if arg.get("sum") is not None:
        total = bound_value(arg["sum"], names)
        for r, row in enumerate(_rows(value)):
            if sum(row) != total:
                raise _Bad(f"row {r} of `{name}` adds up to {sum(row)}, not {total}")


def _read(tensors: list[tuple[str, dict[str, Any]]], args: dict[str, Any]) -> set[str]:
    """The params the bounds of ``tensors`` read (through a ``"{p}"`` value arg too)."""
    ends = [e for _n, a in tensors for e in [*(a.get("range") or []), a.get("sum")]]
    found: set[str] = set()
    for end in ends:
        if isinstance(end, str):
            try:
                found |= {n.id for n in ast.walk(ast.parse(end.strip(), mode="eval"))
                          if isinstance(n, ast.Name)}  # fmt: skip
            except SyntaxError:
                continue
    for name in list(found):
        value = args.get(name, {}).get("value") if isinstance(args.get(name), dict) else None
        if isinstance(value, str) and value.strip().startswith("{"):
            found.add(value.strip()[1:-1])
    return found


def _draws(params: dict[str, Any], fixed: dict[str, Any], read: set[str]) -> list[dict[str, Any]]:
    """Every combination of the params in ``read`` the case does not fix (up to _MAX_COMBOS)."""
    choices: list[tuple[str, list[Any]]] = []
    for name, spec in params.items():
        if name in fixed or name not in read or not isinstance(spec, dict):
            continue
        bounds = spec.get("int")
        if (
            isinstance(bounds, list)
            and len(bounds) == 2
            and all(isinstance(b, int) for b in bounds)
        ):
            choices.append((name, list(range(bounds[0], bounds[1] + 1))))
        elif isinstance(spec.get("choice"), list) and spec["choice"]:
            choices.append((name, list(spec["choice"])))
    combos = itertools.product(*(values for _name, values in choices))
    return [dict(zip([n for n, _v in choices], c, strict=True))
            for c in itertools.islice(combos, _MAX_COMBOS)]  # fmt: skip


def _check_case(case: dict[str, Any], args: dict[str, Any], params: dict[str, Any],
                fixed: dict[str, Any]) -> None:  # fmt: skip
    """_Bad for the first declared input the case breaks (under some draw of the params it
    leaves to be drawn, which the message names)."""
    tensors = [
        (n, a) for n, a in args.items() if n in case and isinstance(a, dict) and "tensor" in a
    ]
    for name, arg in tensors:
        _check_plain(name, arg, case[name])
    names = _values(args, case, fixed)
    try:
        for name, arg in tensors:
            _check_bounds(name, arg, case[name], names)
        return
    except ValueError:
        pass  # a bound reads a param the case leaves to be drawn: try every draw
    for drawn in _draws(params, fixed, _read(tensors, args)):
        try:
            for name, arg in tensors:
                _check_bounds(name, arg, case[name], _values(args, case, {**fixed, **drawn}))
        except _Bad as exc:
            said = ", ".join(f"{k} = {v!r}" for k, v in drawn.items())
            raise _Bad(f"{exc} when {said} (drawn per trial; give it in the case to fix "
                       "it)") from None  # fmt: skip


def check_cases(check: dict[str, Any], path: Path, drill_params: dict[str, Any],
                report: Report) -> None:  # fmt: skip
    """Report every literal case of ``check`` that breaks the check's declared inputs.

    ``drill_params``: one value per drill param (a case is tried in every variant; the
    drill's params are rarely in a shape, and then their first value stands for all)."""
    cases, args = check.get("cases"), check.get("args")
    if not isinstance(cases, list) or not isinstance(args, dict):
        return
    raw = check.get("params")
    params: dict[str, Any] = raw if isinstance(raw, dict) else {}
    for j, case in enumerate(cases):
        if not isinstance(case, dict):
            continue
        try:
            _check_case(case, args, params, {**drill_params, **_bind(case, args)})
        except _Bad as exc:
            report((*path, "cases", j), f"case {j} breaks the declared inputs: {exc}")
        except (ValueError, TypeError, ZeroDivisionError):
            continue  # an end that names nothing: reported at the end by check_inputs
