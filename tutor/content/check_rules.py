"""Pack checks of a code drill's declared inputs and rules that need no torch.

They name what the schema cannot see: a ``distinct`` or ``edges`` name that is not a check
param, a ``range`` or ``sum`` end that names nothing, a ``cases`` entry naming an argument the
check does not have, an ``allow`` entry that is neither under torch nor a Python builtin.
"""

from __future__ import annotations

import ast
import builtins
from typing import Any, Protocol

from tutor.content.models import dtype_kind
from tutor.content.positions import Path

__all__ = ["Report", "check_inputs", "check_rules"]

_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))


class Report(Protocol):
    """Records one problem at ``path`` (at the text ``find`` inside the value, if given)."""

    def __call__(
        self, path: Path, message: str, *, find: str = "", severity: str = "error"
    ) -> None: ...


def _names(expr: object) -> set[str] | None:
    """The names an end such as ``"j - 1"`` reads (None when it is not an expression)."""
    if not isinstance(expr, str):
        return set()
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError:
        return None
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _edge_name(entry: object) -> object:
    """The param an ``edges`` entry names (a name, or the ``param`` of ``{param, min}``)."""
    return entry.get("param") if isinstance(entry, dict) else entry


def check_inputs(check: dict[str, Any], path: Path, declared: set[str], report: Report) -> None:
    """``distinct``, ``edges``, ``cases`` and every tensor arg's ``range``/``sum`` of a check."""
    raw_params = check.get("params")
    own_params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
    own = set(own_params)
    for key in ("distinct", "edges"):
        names = check.get(key)
        if not isinstance(names, list):
            continue
        for j, entry in enumerate(names):
            name = _edge_name(entry) if key == "edges" else entry
            where = (*path, key, j, "param") if isinstance(entry, dict) else (*path, key, j)
            if isinstance(name, str) and name not in own:
                listed = ", ".join(sorted(own)) or "none"
                report(where, f"`{name}` is not one of the check's own params "
                       f"(drawn per trial: {listed})")  # fmt: skip
            elif key == "edges" and isinstance(name, str):
                _edge_in_range(entry, own_params[name], (*path, key, j), report)
    if isinstance(check.get("distinct"), list) and len(check["distinct"]) == 1:
        report((*path, "distinct"), "`distinct` needs at least two params to tell apart")
    raw_args = check.get("args")
    args: dict[str, Any] = raw_args if isinstance(raw_args, dict) else {}
    values = {n for n, a in args.items() if isinstance(a, dict) and "value" in a}
    for name, arg in args.items():
        if not isinstance(arg, dict):
            continue
        _fits_dtype(arg, (*path, "args", name), report)
        ends = list(arg.get("range") or []) if isinstance(arg.get("range"), list) else []
        spots = [((*path, "args", name, "range", j), e) for j, e in enumerate(ends)]
        if "sum" in arg:
            spots.append(((*path, "args", name, "sum"), arg["sum"]))
        for where, end in spots:
            found = _names(end)
            if found is None:
                report(where, f"`{end}` is not a number or an expression such as `j - 1`")
                continue
            for missing in sorted(found - declared - values):
                report(where, f"`{missing}` is not a declared param or `value` argument")
    cases = check.get("cases")
    if isinstance(cases, list):
        for j, case in enumerate(cases):
            if not isinstance(case, dict):
                continue
            for key in case:
                if key not in args:
                    known = ", ".join(args) or "none"
                    report((*path, "cases", j, key), f"`{key}` is not an argument of the check "
                           f"(its args: {known})")  # fmt: skip


def _edge_in_range(entry: object, spec: object, path: Path, report: Report) -> None:
    """An edge ``{param, min}`` whose two sizes are not both in its param's ``int`` range (a
    plain name is tried at 0 and 1 whatever the range: sizes the draws never reach are often
    the point)."""
    bounds = spec.get("int") if isinstance(spec, dict) else None
    if not isinstance(entry, dict) or not (isinstance(bounds, list) and len(bounds) == 2):
        return
    least = entry.get("min", 0)
    numbers = [least, *bounds]
    if not all(isinstance(b, int) and not isinstance(b, bool) for b in numbers):
        return
    low, high = bounds
    if not (low <= least and least + 1 <= high):
        report((*path, "min"), f"edge sizes {least} and {least + 1} are not both in "
               f"`{entry.get('param')}`'s range [{low}, {high}]")  # fmt: skip


def _fits_dtype(arg: dict[str, Any], path: Path, report: Report) -> None:
    """Constraints that the tensor's dtype cannot take."""
    kind = dtype_kind(arg["dtype"]) if isinstance(arg.get("dtype"), str) else "float"
    if "density" in arg and kind != "bool":
        report((*path, "density"), "`density` is for bool tensors: add `dtype: bool`")
    if kind == "bool":
        for key in ("range", "sorted", "unique"):
            if key in arg:
                report((*path, key), f"a bool tensor takes `density`, not `{key}`")
    if "sum" in arg and kind != "int":
        report((*path, "sum"), "`sum` is for integer tensors: add `dtype: int64`")
    if "sum" in arg and arg.get("unique"):
        report((*path, "unique"), "`unique` and `sum` cannot be asked together")


def check_rules(drill: dict[str, Any], here: Path, report: Report) -> None:
    """Every ``allow`` entry must name something under torch, or a Python builtin by its bare
    name (``len``, ``range``)."""
    allow = drill.get("allow")
    if not isinstance(allow, list):
        return
    for j, name in enumerate(allow):
        if not isinstance(name, str) or name == "torch" or name.startswith("torch."):
            continue
        if name not in _BUILTINS:
            report((*here, "allow", j), f"`{name}` is neither a torch function nor a Python "
                   "builtin: write a torch name in full, e.g. `torch.where` (a tensor method: "
                   "`torch.Tensor.sum`), and a builtin by its bare name, e.g. `range`")  # fmt: skip
