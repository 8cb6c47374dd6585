"""Answers too similar across learners: code answers that read the same once names, spacing and
comments are normalised away (``class report --similar``).

``normalise`` parses the answer and prints it back (spacing and comments gone, docstrings
dropped) with every name the answer binds (its functions, arguments, variables) renamed in
order of first appearance: ``def f(x): return x * 2`` and ``def double(n):  # twice`` +
``return n*2`` read the same. Names it does not bind (``torch``, a builtin, a function its setup
gives) and attribute names are kept, so ``x.sum()`` and ``x.mean()`` stay apart. An answer that
does not parse is compared with its comments and spacing removed.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Shared", "normalise", "shared_answers"]


class _Bound(ast.NodeVisitor):
    """The names an answer binds, in order of first appearance."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def _add(self, name: str) -> None:
        if name not in self.names:
            self.names.append(name)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._add(node.name)
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._add(node.name)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._add(node.name)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self._add(node.arg)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store | ast.Del):
            self._add(node.id)


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.names.get(node.id, node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self.names.get(node.arg, node.arg)
        node.annotation = None
        return node

    def _named(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.AST:
        node.name = self.names.get(node.name, node.name)
        body = node.body
        first = body[0] if body else None
        docstring = (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                     and isinstance(first.value.value, str))  # fmt: skip
        if docstring and len(body) > 1:
            node.body = body[1:]
        self.generic_visit(node)
        return node

    visit_FunctionDef = _named
    visit_AsyncFunctionDef = _named
    visit_ClassDef = _named


def _without_comments(text: str) -> str:
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type not in (tokenize.COMMENT, tokenize.NL)]  # fmt: skip
        return " ".join(t.string for t in tokens if t.string.strip())
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return " ".join(text.split())


def normalise(answer: str) -> str:
    """The answer with names, spacing, comments and docstrings normalised away."""
    try:
        tree = ast.parse(answer)
    except (SyntaxError, ValueError, RecursionError):
        return _without_comments(answer)
    bound = _Bound()
    bound.visit(tree)
    renamed = _Rename({name: f"v{i}" for i, name in enumerate(bound.names)}).visit(tree)
    try:
        return ast.unparse(renamed)
    except (ValueError, RecursionError):
        return _without_comments(answer)


@dataclass(frozen=True)
class Shared:
    """One answer to ``drill`` that two or more learners gave, normalised the same."""

    drill: str
    learners: tuple[str, ...]
    answer: str
    """one learner's answer as written (the first learner's)"""
    size: int
    """how many tokens the normalised answer has: a long shared answer says more than a short one"""


def shared_answers(
    answers: Iterable[tuple[str, str, str]], common: dict[str, set[str]] | None = None
) -> list[Shared]:
    """Answers shared across learners, from ``(learner, drill, answer)`` triples; the longest
    first. ``common``: per drill, normalised answers everyone may share (the drill's own starter,
    reference and wrong answers), which are not reported."""
    seen: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for learner, drill, answer in answers:
        if not answer.strip():
            continue
        key = normalise(answer)
        if key in (common or {}).get(drill, set()):
            continue
        seen[(drill, key)].setdefault(learner, answer)
    out = []
    for (drill, key), by in seen.items():
        if len(by) > 1:
            first = next(iter(by.values()))
            size = len(_without_comments(key).split())
            out.append(Shared(drill, tuple(sorted(by)), first.strip("\n"), size))
    return sorted(out, key=lambda s: (-s.size, s.drill, s.learners))
