"""An order drill's lines as feedback speaks of them (torch-free): quoted so that a sentence
reads right around a line of code and a line of prose alike, and, for lines of code, which
name a line uses before the line that makes it.

A line is code when Python parses it, alone or as the head of a block (``for x in xs:``,
``def f(x):``); anything else is prose ("The backend compiles the FX graph into a callable.").
"""

from __future__ import annotations

import ast

__all__ = ["is_code", "made_later", "quote_line"]


def _tree(text: str) -> ast.Module | None:
    """The parsed line, or None when it is not Python (a block head parses with a body)."""
    for source in (text, text + " pass"):
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return None


def is_code(line: str) -> bool:
    """Whether ``line`` is a line of Python (never when it holds a backtick: prose with code
    spans)."""
    text = line.strip()
    return bool(text) and "`" not in text and _tree(text) is not None


def quote_line(line: str) -> str:
    """``line`` quoted in feedback: a line of code as a Markdown code span (`` `out = model(x)`
    ``), a line of prose in quotation marks without its closing full stop, so the sentence
    around it reads right ("Line 2 (“The backend compiles the FX graph into a callable”) is out
    of place"), its own code spans still drawn as code."""
    text = line.strip()
    if is_code(text):
        return f"`{text}`"
    return f"“{text if text.endswith('..') else text.removesuffix('.')}”"


def _names(line: str) -> tuple[list[str], set[str]]:
    """The names a line of code reads (in order of appearance) and the names it makes
    (assigns, imports, defines); nothing for prose."""
    tree = _tree(line.strip()) if is_code(line) else None
    if tree is None:
        return [], set()
    made: set[str] = set()
    reads: list[ast.Name] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                reads.append(node)
            else:
                made.add(node.id)
        elif isinstance(node, ast.alias):
            made.add((node.asname or node.name).partition(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            made.add(node.name)
    reads.sort(key=lambda n: (n.lineno, n.col_offset))
    return list(dict.fromkeys(n.id for n in reads)), made


def made_later(lines: list[str], i: int) -> tuple[str, int] | None:
    """For ``lines`` in the learner's order: the first name line ``i`` (from 0) reads that no
    line up to it makes but a later line does, with that later line's index; None when there
    is none (or the line is prose)."""
    used, _ = _names(lines[i])
    made = [_names(line)[1] for line in lines]
    before = set().union(*made[: i + 1])
    for name in used:
        if name in before:
            continue
        later = next((j for j in range(i + 1, len(lines)) if name in made[j]), None)
        if later is not None:
            return name, later
    return None
