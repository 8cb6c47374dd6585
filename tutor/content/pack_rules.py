"""Pack checks beyond the schema that need no torch: ids, ranges, placeholders, choice
``why`` texts that give the right answer away, and order constraints that name no line or that
``lines`` breaks.

They run on the plain data (whatever its shape), so a file with schema errors still gets
every other problem reported in the same pass.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from tutor.content.case_rules import check_cases
from tutor.content.check_rules import Report, check_inputs, check_rules
from tutor.content.choice_rules import choice_problems
from tutor.content.labs import LAB_NAMES
from tutor.content.order_rules import constraint_problems
from tutor.content.positions import Locator, Path, dotted
from tutor.content.problems import Problem
from tutor.content.template import placeholders
from tutor.content.uses_rules import check_uses

#: drill fields shown to the learner, where every ``{name}`` must be a declared param
PROSE_FIELDS = ("title", "prompt", "explain")
PROSE_LISTS = ("hints", "lines")


def check_pack_data(data: Any, locator: Locator) -> list[Problem]:
    """Problems of a pack's plain data that the pydantic models do not catch."""
    problems: list[Problem] = []
    if not isinstance(data, dict) or not isinstance(data.get("drills"), list):
        return problems

    def report(path: Path, message: str, *, find: str = "", severity: str = "error") -> None:
        line, col = locator.find(path, find) if find else locator.at(path)
        problems.append(Problem(locator.file, line, col, dotted(path), message, severity))

    if isinstance(data.get("torch"), str):
        _check_torch(data["torch"], report)
    seen: dict[str, int] = {}
    for i, drill in enumerate(data["drills"]):
        if not isinstance(drill, dict):
            continue
        here: Path = ("drills", i)
        ident = drill.get("id")
        if isinstance(ident, str):
            if ident in seen:
                first = locator.at(("drills", seen[ident], "id"))[0]
                message = (
                    f"duplicate id `{ident}` (first used by drills[{seen[ident]}], line {first})"
                )
                report((*here, "id"), message)
            else:
                seen[ident] = i
        lab = drill.get("lab")
        if isinstance(lab, str) and lab not in LAB_NAMES:
            close = difflib.get_close_matches(lab, LAB_NAMES, n=1)
            hint = f"did you mean `{close[0]}`?" if close else f"one of {', '.join(LAB_NAMES)}"
            report((*here, "lab"), f"unknown lab `{lab}` ({hint})")
        declared = _check_params(drill.get("params"), (*here, "params"), report)
        check = drill.get("check")
        if isinstance(check, dict):
            declared |= _check_params(check.get("params"), (*here, "check", "params"), report)
            _check_args(check.get("args"), (*here, "check", "args"), declared, report)
            check_inputs(check, (*here, "check"), declared, report)
            check_cases(check, (*here, "check"), _first_values(drill.get("params")), report)
        check_rules(drill, here, report)
        check_uses(data["drills"], i, report)
        for rel, message in constraint_problems(drill):
            report((*here, *rel), message)
        for j, message in choice_problems(drill.get("choices")):
            report((*here, "choices", j, "why"), message)
        for path, text in _prose(drill, here):
            missing = sorted(placeholders(text) - declared)
            for name in missing:
                message = f"`{{{name}}}` is not a declared param{_declared_list(declared)}"
                report(path, message, find=f"{{{name}}}")
    return problems


def _check_torch(spec: str, report: Report) -> None:
    """The ``torch`` key must be a version specifier such as ``>=2.4``."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        SpecifierSet(spec)
    except InvalidSpecifier:
        report(
            ("torch",), f'`{spec}` is not a version specifier (write e.g. ">=2.4" or ">=2.4,<3")'
        )


def _first_values(params: Any) -> dict[str, Any]:
    """One value per param: an int range's low end, a choice's first value."""
    out: dict[str, Any] = {}
    for name, spec in (params if isinstance(params, dict) else {}).items():
        if isinstance(spec, dict) and isinstance(spec.get("int"), list) and spec["int"]:
            out[name] = spec["int"][0]
        elif isinstance(spec, dict) and isinstance(spec.get("choice"), list) and spec["choice"]:
            out[name] = spec["choice"][0]
    return out


def _declared_list(declared: set[str]) -> str:
    if not declared:
        return " (this drill declares no params; write `{{` and `}}` for literal braces)"
    return f" (declared: {', '.join(sorted(declared))})"


def _check_params(params: Any, path: Path, report: Report) -> set[str]:
    """Report empty or inverted ranges; return the names declared."""
    if not isinstance(params, dict):
        return set()
    for name, spec in params.items():
        if not isinstance(spec, dict):
            continue
        bounds = spec.get("int")
        if (
            isinstance(bounds, list)
            and len(bounds) == 2
            and all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
            and bounds[0] > bounds[1]
        ):
            report(
                (*path, name, "int"),
                f"empty range [{bounds[0]}, {bounds[1]}]: low must not exceed high "
                f"(did you mean [{bounds[1]}, {bounds[0]}]?)",
            )
        if "choice" in spec and spec["choice"] == []:
            report((*path, name, "choice"), "empty choice: list at least one value")
    return {str(name) for name in params}


def _check_args(args: Any, path: Path, declared: set[str], report: Report) -> None:
    """Every name in a tensor shape (or a ``{name}`` value) must be a declared param."""
    if not isinstance(args, dict):
        return
    for arg, spec in args.items():
        if not isinstance(spec, dict):
            continue
        shape = spec.get("tensor")
        if isinstance(shape, list):
            for j, dim in enumerate(shape):
                if isinstance(dim, str) and dim not in declared:
                    report(
                        (*path, arg, "tensor", j),
                        f"`{dim}` in the shape is not a declared param{_declared_list(declared)}",
                    )
        value = spec.get("value")
        if isinstance(value, str):
            for name in sorted(placeholders(value) - declared):
                report(
                    (*path, arg, "value"),
                    f"`{{{name}}}` is not a declared param{_declared_list(declared)}",
                    find=f"{{{name}}}",
                )


def _prose(drill: dict[str, Any], here: Path) -> Iterator[tuple[Path, str]]:
    """(path, text) of every learner-facing text of a drill."""
    for key in PROSE_FIELDS:
        if isinstance(drill.get(key), str):
            yield (*here, key), drill[key]
    for key in PROSE_LISTS:
        items = drill.get(key)
        if isinstance(items, list):
            for j, item in enumerate(items):
                if isinstance(item, str):
                    yield (*here, key, j), item
    choices = drill.get("choices")
    if isinstance(choices, list):
        for j, choice in enumerate(choices):
            if isinstance(choice, dict):
                for key in ("answer", "why"):
                    if isinstance(choice.get(key), str):
                        yield (*here, "choices", j, key), choice[key]
    wrong = drill.get("wrong")
    if isinstance(wrong, list):
        for j, entry in enumerate(wrong):
            if isinstance(entry, dict) and isinstance(entry.get("feedback"), str):
                yield (*here, "wrong", j, "feedback"), entry["feedback"]
