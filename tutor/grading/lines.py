"""``max_lines``: count the lines of code in an answer's function bodies (torch-free).

A line counts when it holds code of a function's body: blank lines, comments, docstrings and
the ``def`` lines themselves (a signature over several lines included) do not count, and a
statement written over several lines counts each of its lines. Code outside any function
(a helper ``lambda`` assigned at the top level, say) counts as well, so moving work out of the
function does not escape the limit; imports do not count. Statements joined on one line
(``a = f(x); return a``, ``if c: return a``) count one line each.
"""

from __future__ import annotations

import ast
import io
import tokenize

_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
         tokenize.ENCODING, tokenize.ENDMARKER}  # fmt: skip


def _code_lines(code: str) -> set[int]:
    """The lines that hold at least one token of code (strings spanning lines: every line)."""
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type not in _SKIP:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return lines


def _docstring_lines(node: ast.AST) -> set[int]:
    body = getattr(node, "body", None)
    if not body or not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef |
                                  ast.Module):  # fmt: skip
        return set()
    first = body[0]
    value = first.value if isinstance(first, ast.Expr) else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return set()


def _header_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
    """The lines of the decorators and the ``def ...:`` up to the body (not the body's line
    when the body shares it, as in ``def f(x): return x``)."""
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    first_body = node.body[0].lineno
    return set(range(start, first_body if first_body > node.lineno else node.lineno + 1)) - (
        {first_body} if first_body == node.lineno else set()
    )


def _joined(tree: ast.AST, counted: set[int]) -> int:
    """Statements that share a counted line with an earlier one (``a = f(x); return a``,
    ``if c: return a``): each counts as a line of its own."""
    starts: dict[int, int] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or isinstance(node, _NOT_STATEMENTS):
            continue
        if node.lineno in counted:
            starts[node.lineno] = starts.get(node.lineno, 0) + 1
    return sum(n - 1 for n in starts.values())


_NOT_STATEMENTS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Import, ast.ImportFrom)


def count_lines(code: str) -> int:
    """How many lines of ``code`` count against ``max_lines`` (SyntaxError if it does not parse)."""
    tree = ast.parse(code)
    lines = _code_lines(code)
    for node in ast.walk(tree):
        lines -= _docstring_lines(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines -= _header_lines(node)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            lines -= set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return len(lines) + _joined(tree, lines)


def too_long(code: str, limit: int | None) -> str | None:
    """The learner-facing reason ``code`` breaks ``max_lines``, or None."""
    if limit is None:
        return None
    n = count_lines(code)
    if n <= limit:
        return None
    noun = "line" if limit == 1 else "lines"
    return (f"Your answer has {n} lines of code; this drill allows at most {limit} {noun} "
            "(blank lines, comments, docstrings and `def` lines do not count; statements joined "
            "with `;` count one each).")  # fmt: skip
