"""The reading of a code or fix answer: what it may not do, proved from its text (torch-free).

``read_answer(code, setup=..., forbid=..., allow=..., max_lines=..., resolver=...)`` parses the
answer (SyntaxError propagates) and returns every :class:`Refusal`, one per line and reason,
sorted by line:

- for every answer, what would let it change or reach around what its check relies on
  (``reading_tamper``: rebinding a setup name, a check's private instrument, patching a module or
  class, modules and classes as values; ``reading_dynamic``: code and names built at run time,
  the interpreter's insides, pickles, imports outside the standard library, torch and numpy);
- for an answer to a drill with rules (``forbid``, ``allow`` or ``max_lines``), what the rules
  refuse and what would escape them (``reading_rules``), and the line count (``reading_lines``).

It never runs the answer. ``resolver`` answers questions about dotted names: the UI passes the
torch-free ``StaticResolver`` (it says UNKNOWN where it cannot tell, and nothing is refused on
that point), the judge ``reading_torch.TorchResolver`` (the authoritative reading). So every
refusal of the pre-pass is a refusal of the judge too.
"""

from __future__ import annotations

import ast

from tutor.probes.reading_core import Reading, Refusal, Rule
from tutor.probes.reading_dynamic import check_dynamic
from tutor.probes.reading_lines import count_lines, too_long
from tutor.probes.reading_lists import KEYWORDS
from tutor.probes.reading_resolve import Resolver, StaticResolver
from tutor.probes.reading_rules import check_rules
from tutor.probes.reading_tamper import check_tamper

__all__ = ["KEYWORDS", "Refusal", "Rule", "count_lines", "imported_modules", "read_answer",
           "static_resolver"]  # fmt: skip

#: which refusal of a line and text is kept: the most specific first
_ORDER: dict[str, int] = {"tamper": 0, "dynamic": 1, "loop": 2, "forbidden": 3, "not_allowed": 4,
                          "rules": 5, "max_lines": 6}  # fmt: skip


def imported_modules(*trees: ast.AST | None) -> frozenset[str]:
    """The modules the ``import`` statements of ``trees`` name (and their parents): modules for
    sure, or the import fails."""
    found: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree) if tree is not None else ():
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            for name in names:
                parts = name.split(".")
                found.update(".".join(parts[: i + 1]) for i in range(len(parts)))
    return frozenset(found)


def static_resolver(code: str, setup: str) -> StaticResolver:
    """The torch-free resolver for one answer: the fixed facts, plus its and its setup's imports
    (code that does not parse imports nothing)."""
    trees = []
    for text in (code, setup):
        try:
            trees.append(ast.parse(text))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return StaticResolver(imported_modules(*trees))


def _setup_tree(setup: str) -> ast.Module | None:
    """The setup's tree; a setup that does not parse binds nothing here (running it reports
    the broken drill)."""
    try:
        return ast.parse(setup)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def read_answer(
    code: str,
    *,
    setup: str,
    forbid: list[str],
    allow: list[str],
    max_lines: int | None,
    resolver: Resolver | None = None,
) -> list[Refusal]:
    """Every refusal of ``code`` (an answer to a drill with this rendered ``setup`` and these
    rules), one per line and reason, sorted by line. Raises SyntaxError when it does not parse.
    ``resolver``: the judge's; by default the torch-free one (``static_resolver``)."""
    tree = ast.parse(code)
    setup_tree = _setup_tree(setup)
    if resolver is None:
        resolver = StaticResolver(imported_modules(tree, setup_tree))
    r = Reading(tree, setup_tree, resolver)
    check_tamper(r)
    check_dynamic(r)
    if forbid or allow or max_lines is not None:
        check_rules(r, list(forbid), list(allow))
        reason = too_long(code, max_lines, tree)
        if reason:
            r.refuse(0, "", reason, "max_lines", "max_lines")
    return _unique(r.refusals)


def _unique(refusals: list[Refusal]) -> list[Refusal]:
    """One refusal per line and text as written (the first found by rule order), sorted."""
    seen: dict[tuple[int, str], Refusal] = {}
    for ref in sorted(refusals, key=lambda x: (x.line, _ORDER[x.rule])):
        seen.setdefault((ref.line, ref.written), ref)
    return sorted(seen.values(), key=lambda x: (x.line, _ORDER[x.rule], x.written))
