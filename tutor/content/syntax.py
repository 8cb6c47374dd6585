"""Static checks of a pack's code, without running it: it compiles, and ``call`` exists.

Part of ``tutor pack check`` (not of every catalog load): ``setup``, ``ask`` (and each ``ask`` of
a predict drill's ``wrong`` entries), ``reference`` and a check's ``assert`` (and every line of an
order drill checked by running) must compile once their params are filled in, ``ask`` must be one expression,
and a check's ``call`` must be defined at the top level of the reference. Errors point at the
offending line inside the block of code.
"""

from __future__ import annotations

import ast
from typing import Any

from tutor.content.assert_taint import self_compared
from tutor.content.models import CodeDrill, Drill, IntParam, OrderDrill, Pack, PredictDrill
from tutor.content.positions import Locator, Path, dotted
from tutor.content.problems import Problem
from tutor.content.template import render


def sample_params(*specs: dict[str, Any]) -> dict[str, Any]:
    """One value for each param (an int range's low end, a choice's first value)."""
    values: dict[str, Any] = {}
    for params in specs:
        for name, spec in params.items():
            if isinstance(spec, IntParam):
                values[name] = spec.int_[0]
            elif spec.choice:
                values[name] = spec.choice[0]
    return values


def _code_position(
    locator: Locator, path: Path, line_no: int, offset: int, code: str
) -> tuple[int, int]:
    """Where line ``line_no`` (1-based), column ``offset`` of the code at ``path`` is written."""
    line, col = locator.at(path)
    lines = locator.text.split("\n")
    row = line - locator.line_offset - 1
    if not locator.text or row >= len(lines):
        return line, col
    header = lines[row][col - 1 : col]
    if header not in ("|", ">"):  # code written on the key's own line
        quote = 1 if header in ("'", '"') else 0
        return (line, col + quote + max(offset, 1) - 1) if line_no == 1 else (line, col)
    target = row + line_no
    code_lines = code.split("\n")
    if target >= len(lines) or line_no > len(code_lines):
        return line, col
    source, text = lines[target], code_lines[line_no - 1]
    indent = (len(source) - len(source.lstrip(" "))) - (len(text) - len(text.lstrip(" ")))
    return target + 1 + locator.line_offset, indent + max(offset, 1)


def _compile(code: str, mode: str) -> SyntaxError | None:
    try:
        compile(code, "<pack>", mode, dont_inherit=True)
    except SyntaxError as exc:
        return exc
    except ValueError as exc:  # e.g. null bytes
        return SyntaxError(str(exc))
    return None


def _top_level_names(code: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(code).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _given_names(pack: Pack, drill: Drill) -> dict[str, str]:
    """The top-level names the references of the drills ``drill`` uses define -> the drill."""
    by_id = {d.id: d for d in pack.drills}
    names: dict[str, str] = {}
    for ident in drill.used_drills:
        used = by_id.get(ident)
        if isinstance(used, CodeDrill) and _compile(used.reference, "exec") is None:
            names.update(dict.fromkeys(_top_level_names(used.reference), ident))
    return names


#: how an assert that compares the answer only with itself is reported
SELF_CHECK_SEVERITY = "error"


def _self_checks(
    drill: CodeDrill, path: Path, params: dict[str, Any], locator: Locator
) -> list[Problem]:
    """An assert whose expected side is computed from the answer's own names (unless
    ``check.self_check`` says why), reported at the comparison (``assert_taint``)."""
    if drill.check.self_check:
        return []
    code = render(drill.check.assert_ or "", params)
    try:
        found = self_compared(drill.setup_code(params), code)
    except SyntaxError:
        return []
    out = []
    for line_no, written in found:
        line, col = _code_position(locator, path, line_no, 1, code)
        message = (f"`{written}` compares the answer's names only with values computed from "
                   "the answer's own names, so an answer that makes both sides agree passes: "
                   "compute the expected side from setup's names or constants, or say why in "
                   "`check.self_check`")  # fmt: skip
        out.append(Problem(locator.file, line, col, dotted(path), message, SELF_CHECK_SEVERITY))
    return out


def code_problems(pack: Pack, locator: Locator) -> list[Problem]:
    """Code of the pack that cannot compile, and checks that call what the reference lacks."""
    problems: list[Problem] = []

    def check(path: Path, source: str, mode: str, params: dict[str, Any], what: str) -> bool:
        code = render(source, params)
        error = _compile(code, mode)
        if error is None:
            return True
        line, col = _code_position(locator, path, error.lineno or 1, error.offset or 1, code)
        problems.append(Problem(locator.file, line, col, dotted(path), f"{what}: {error.msg}"))
        return False

    if pack.setup:
        check(("setup",), pack.setup, "exec", {}, "not valid Python")
    for i, drill in enumerate(pack.drills):
        here: Path = ("drills", i)
        check_params = drill.check.params if isinstance(drill, CodeDrill) else {}
        params = sample_params(drill.params, check_params)
        if drill.harness:
            check((*here, "harness"), drill.harness, "exec", params, "not valid Python")
        if drill.setup:
            check((*here, "setup"), drill.setup, "exec", params, "not valid Python")
        if isinstance(drill, PredictDrill):
            check((*here, "ask"), drill.ask, "eval", params, "not one Python expression")
            for j, mistake in enumerate(drill.wrong):
                path = (*here, "wrong", j, "ask")
                check(path, mistake.ask, "eval", params, "not one Python expression")
        if isinstance(drill, OrderDrill) and drill.run is not None:
            check((*here, "run", "assert"), drill.run.assert_, "exec", params, "not valid Python")
            for j, text in enumerate(drill.lines):  # the lines are run: each must be Python
                check((*here, "lines", j), text, "exec", params, "not valid Python (the lines run)")
        if not isinstance(drill, CodeDrill):
            continue
        ok = check((*here, "reference"), drill.reference, "exec", params, "not valid Python")
        if drill.check.assert_:
            path = (*here, "check", "assert")
            if check(path, drill.check.assert_, "exec", params, "not valid Python"):
                problems += _self_checks(drill, path, params, locator)
        call = drill.check.call
        if ok and call and call not in _top_level_names(render(drill.reference, params)):
            line, col = locator.at((*here, "check", "call"))
            message = f"`{call}` is not defined at the top level of the reference"
            field = dotted((*here, "check", "call"))
            problems.append(Problem(locator.file, line, col, field, message))
        given = _given_names(pack, drill)
        if call and call in given:
            line, col = locator.at((*here, "check", "call"))
            message = (f"`{call}` is also defined by the reference of `{given[call]}`, which "
                       "this drill uses: name the drill's function differently")  # fmt: skip
            problems.append(Problem(locator.file, line, col, dotted((*here, "check", "call")),
                                    message))  # fmt: skip
    return sorted(problems, key=lambda p: (p.line, p.col))
