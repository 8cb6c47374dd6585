"""Pack check of a code drill's ``assert``: its expected side must not come from the answer.

An assert that compares the answer's names only with values computed from the answer's own
names (``want = images.permute(...)`` where ``images`` is the answer's) can be satisfied by an
answer that makes both sides agree on anything (zeros everywhere). The expected side must come
from the drill: a constant, the setup's names (the judge runs setup itself), or the check's own
instruments. Torch-free: the assert is read, not run.

The reading is deliberately simple: a name the assert reads that setup does not bind (and that
is not ``torch``, ``nn``, ``F`` or a builtin) is the answer's; a name the assert assigns from an
expression that reads one of the answer's is the answer's too; a comparison (``==``, ``<``,
``torch.equal``, ``torch.allclose``, ``math.isclose``, ...) whose every side reads the answer's
names is reported, unless the drill's ``check.self_check`` says why that is intended.
"""

from __future__ import annotations

import ast
import builtins

_GIVEN = {"torch", "nn", "F", *dir(builtins)}
_EQUAL_CALLS = {"equal", "allclose", "isclose", "assert_close", "testing.assert_close"}


def _top_names(code: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(code or "").body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        else:
            names |= {
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
    return names


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _reads(node: ast.AST) -> set[str]:
    """The names ``node`` reads, a comprehension's own variables left out (they are its own)."""
    loaded = {
        n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    own = {
        name
        for comp in ast.walk(node)
        if isinstance(comp, _COMPREHENSIONS)
        for gen in comp.generators
        for name in _stored(gen.target)
    }
    return loaded - own


def _stored(target: ast.AST) -> set[str]:
    return {
        n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }


def _call_name(node: ast.Call) -> str:
    func = node.func
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return ".".join(reversed(parts))


def _sides(node: ast.AST) -> list[list[ast.AST]]:
    """The comparisons inside an assert's test, each as its sides."""
    found: list[list[ast.AST]] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Compare):
            found.append([sub.left, *sub.comparators])
        elif isinstance(sub, ast.Call) and len(sub.args) >= 2:
            name = _call_name(sub)
            if name.rpartition(".")[2] in _EQUAL_CALLS or name in _EQUAL_CALLS:
                found.append(list(sub.args[:2]))
    return found


def _loop_flows(node: ast.For) -> list[tuple[ast.AST, set[str]]]:
    """What a ``for`` loop's targets are bound from; ``for a, b in zip(x, y)`` pairs each
    target with its own iterable."""
    it, target = node.iter, node.target
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "zip"
        and isinstance(target, ast.Tuple)
        and len(target.elts) == len(it.args)
    ):
        return [(arg, _stored(elt)) for arg, elt in zip(it.args, target.elts, strict=True)]
    return [(it, _stored(target))]


def _side_reads(side: ast.AST, answers: set[str]) -> bool:
    """Whether one side of a comparison reads the answer's names (a comprehension's variables
    count as what they iterate over)."""
    if _reads(side) & answers:
        return True
    return any(
        isinstance(comp, _COMPREHENSIONS)
        and any(_reads(gen.iter) & answers for gen in comp.generators)
        for comp in ast.walk(side)
    )


def self_compared(setup: str, assert_code: str) -> list[tuple[int, str]]:
    """(line within the assert, the comparison as written) of every comparison whose every side
    reads the answer's names. Raises SyntaxError when either text does not parse."""
    given = _top_names(setup) | _GIVEN
    tree = ast.parse(assert_code)
    flows: list[tuple[ast.AST, set[str]]] = []  # (what is read, the names it binds)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            flows.append((node.value, set().union(*(_stored(t) for t in node.targets))))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
            flows.append((node.value, _stored(node.target)))
        elif isinstance(node, ast.For):
            flows += _loop_flows(node)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            given |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.NamedExpr):
            flows.append((node.value, _stored(node.target)))
    assigned = set().union(*(bound for _, bound in flows)) if flows else set()
    answers = {n for n in _reads(tree) if n not in given and n not in assigned}
    changed = True
    while changed:
        changed = False
        for value, bound in flows:
            if _reads(value) & answers and not bound <= answers:
                answers |= bound
                changed = True
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        for sides in _sides(node.test):
            if all(_side_reads(side, answers) for side in sides):
                out.append((node.lineno, ast.unparse(node.test)))
                break
    return out
