"""``max_lines``: how many lines of code an answer has, wherever its code hides (torch-free).

A line counts when it holds code: blank lines, comments and docstrings do not count, nor does
a ``def`` line (a signature over several lines included) or an import line, as long as it
holds nothing else. A statement written over several lines counts each of its lines, and
statements sharing one line count one each (``a = f(x); return a``, ``if c: return a``,
``import torch; x = f()``). Code in a ``def`` line counts like a statement: every decorator,
and every default value or annotation that computes (a call, a walrus, a lambda, an operator,
an index, a comprehension): ``def f(x, t=torch.flip(x, [0])):`` is code, not a signature. Code
outside any function counts as well.
"""

from __future__ import annotations

import ast
import io
import tokenize

_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
         tokenize.ENCODING, tokenize.ENDMARKER}  # fmt: skip
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPUTES = (ast.Call, ast.NamedExpr, ast.Lambda, ast.ListComp, ast.SetComp, ast.GeneratorExp,
             ast.DictComp, ast.Await, ast.Yield, ast.YieldFrom)  # fmt: skip
_PLAIN = (ast.Constant, ast.Name, ast.Attribute, ast.Tuple, ast.List, ast.Set, ast.Dict,
          ast.Load, ast.Starred)  # fmt: skip


def _code_lines(code: str) -> set[int]:
    """The lines that hold at least one token of code (strings spanning lines: every line)."""
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type not in _SKIP:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return lines


def _span(node: ast.AST) -> set[int]:
    start = getattr(node, "lineno", 0)
    return set(range(start, (getattr(node, "end_lineno", None) or start) + 1))


def _docstring_lines(node: ast.AST) -> set[int]:
    body = getattr(node, "body", None)
    if not body or not isinstance(node, (*_DEFS, ast.ClassDef, ast.Module)):
        return set()
    first = body[0]
    value = first.value if isinstance(first, ast.Expr) else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return _span(first)
    return set()


def _header_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
    """The lines of ``def ...:`` up to the body (not the body's line when the body shares it,
    as in ``def f(x): return x``; not the decorators)."""
    first_body = node.body[0].lineno
    end = first_body if first_body > node.lineno else node.lineno + 1
    return set(range(node.lineno, end)) - ({first_body} if first_body == node.lineno else set())


def computes(node: ast.AST, annotation: bool = False) -> bool:
    """Whether a default value or annotation runs code of its own (an annotation may index and
    use ``|``: ``dict[str, int] | None``)."""
    for sub in ast.walk(node):
        if isinstance(sub, _COMPUTES):
            return True
        if annotation or isinstance(sub, _PLAIN):
            continue
        if isinstance(sub, ast.UnaryOp) and isinstance(sub.operand, ast.Constant):
            continue
        if isinstance(sub, ast.expr_context | ast.unaryop):
            continue
        return True
    return False


def _header_code(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
) -> list[ast.expr | ast.keyword]:
    """The parts of a definition's first lines that are code: decorators, and the defaults,
    annotations, bases and keywords that compute."""
    parts: list[ast.expr | ast.keyword] = list(node.decorator_list)
    if isinstance(node, ast.ClassDef):
        heads: list[ast.expr | ast.keyword] = [*node.bases, *node.keywords]
        return parts + [e for e in heads if computes(e)]
    args = node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    parts += [d for d in [*args.defaults, *args.kw_defaults] if d is not None and computes(d)]
    notes = [a.annotation for a in every if a is not None and a.annotation is not None]
    notes += [node.returns] if node.returns is not None else []
    return parts + [n for n in notes if computes(n, annotation=True)]


def _compound(node: ast.stmt) -> bool:
    """Whether a statement holds a body of statements (its own lines are its header's)."""
    return any(isinstance(getattr(node, f, None), list) and getattr(node, f)
               and isinstance(getattr(node, f)[0], ast.stmt | ast.excepthandler | ast.match_case)
               for f in ("body", "orelse", "finalbody", "handlers", "cases"))  # fmt: skip


def count_lines(code: str, tree: ast.Module | None = None) -> int:
    """How many lines of ``code`` count against ``max_lines`` (SyntaxError if it does not parse;
    ``tree``: its tree, when already parsed)."""
    tree = tree if tree is not None else ast.parse(code)
    lines = _code_lines(code)
    excluded: set[int] = set()
    kept: set[int] = set()
    starts: dict[int, int] = {}

    def item(node: ast.stmt | ast.expr | ast.keyword, span: set[int]) -> None:
        starts[node.lineno] = starts.get(node.lineno, 0) + 1
        kept.update(span)

    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (*_DEFS, ast.ClassDef, ast.Module)):
            doc = _docstring_lines(node)
            if doc:
                excluded |= doc
                docstrings.add(id(node.body[0]))
        if id(node) in docstrings:
            continue
        if isinstance(node, (*_DEFS, ast.ClassDef)):
            if isinstance(node, _DEFS):
                excluded |= _header_lines(node)
            else:
                item(node, {node.lineno})
            for part in _header_code(node):
                item(part, _span(part))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            excluded |= _span(node)
        elif isinstance(node, ast.stmt):
            item(node, {node.lineno} if _compound(node) else _span(node))
    counted = {n for n in lines if n not in excluded or n in kept}
    return len(counted) + sum(n - 1 for line, n in starts.items() if line in counted and n > 1)


def too_long(code: str, limit: int | None, tree: ast.Module | None = None) -> str | None:
    """The learner-facing reason ``code`` breaks ``max_lines``, or None."""
    if limit is None:
        return None
    n = count_lines(code, tree)
    if n <= limit:
        return None
    noun = "line" if limit == 1 else "lines"
    return (f"Your answer has {n} lines of code; this drill allows at most {limit} {noun} "
            "(blank lines, comments, docstrings, imports and `def` lines do not count; "
            "statements sharing a line count one each, and so do decorators and default "
            "values that compute).")  # fmt: skip
