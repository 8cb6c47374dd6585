"""Runtime side, in the judge: the ``assert`` stage of a code or fix drill.

The assert runs here, never in the learner's process. Its names come from two places:

- a PUBLIC name the drill's ``setup`` assigns (``x = torch.randn(...)``) whose value is plain
  data (tensors, numbers, strings, None, and lists, tuples and dicts of them) is the judge's own:
  the judge runs ``setup`` itself, with the same seed, so whatever the learner's code did to its
  copy (``y.zero_()``, ``images = torch.zeros(...)``) cannot change what the check compares
  against;
- every other name comes from the learner's process: data rebuilt from the wire, or a
  ``Remote`` for its functions, classes, modules, generators and models. The check's own
  instruments (PRIVATE setup names, ``_calls``) are among them: the reading of the answer
  refuses any answer that names or rebinds them (``tutor/probes/reading*.py``).

The assert's code is the drill's, so the judge may run it; it runs with two guards that make a
vacuous check fail: a ``for`` loop whose iterable yields nothing, and ``all``/``any`` over an
empty collection, stop it with "proves nothing".
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Iterator
from typing import Any

import torch

from tutor.probes.grade_run import fresh_namespace, manual_seed

_OWN = {"__name__", "__builtins__", "torch", "nn", "F"}  # what fresh_namespace() binds
_EMPTY = "an empty collection proves nothing"


def read_names(code: str) -> set[str]:
    """The names ``code`` reads that the judge's own namespace does not provide."""
    found = {n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name)}
    return found - _OWN - set(dir(builtins))


def assigned_public(setup: str) -> set[str]:
    """The public names ``setup`` binds at its top level by assignment (not by ``def``,
    ``class`` or ``import``: those are objects, never plain data)."""
    found: set[str] = set()
    try:
        tree = ast.parse(setup or "")
    except SyntaxError:
        return found
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                found.add(sub.id)
    return {n for n in found if not n.startswith("_")}


def is_data(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is plain data (what the judge may take from its own setup run)."""
    if depth > 32:
        return False
    kind = type(value)
    if value is None or kind in (bool, int, float, complex, str):
        return True
    if kind in (torch.Size, torch.dtype, torch.device, torch.Tensor, torch.nn.Parameter):
        return True
    if kind in (list, tuple):
        return all(is_data(v, depth + 1) for v in value)
    if kind is dict:
        return all(is_data(k, depth + 1) and is_data(v, depth + 1) for k, v in value.items())
    return False


def judge_setup_data(setup: str, names: set[str], seed: int) -> dict[str, Any]:
    """The judge's own values of ``names`` after running ``setup`` with ``seed``, for those that
    are plain data. Raises what setup raises (the caller reports a broken drill)."""
    if not names:
        return {}
    ns = fresh_namespace()
    manual_seed(seed)
    exec(compile(setup, "<setup>", "exec"), ns)
    return {n: ns[n] for n in names if n in ns and is_data(ns[n])}


class Vacuous(AssertionError):
    """The check ran over nothing."""


def _nonempty(items: Iterable[Any], where: str) -> Iterator[Any]:
    seen = False
    for item in items:
        seen = True
        yield item
    if not seen:
        raise Vacuous(f"the check's loop {where} ran zero times: {_EMPTY}")


def _all(items: Iterable[Any]) -> bool:
    values = list(items)
    if not values:
        raise Vacuous(f"the check's all() got nothing to test: {_EMPTY}")
    return builtins.all(values)


def _any(items: Iterable[Any]) -> bool:
    values = list(items)
    if not values:
        raise Vacuous(f"the check's any() got nothing to test: {_EMPTY}")
    return builtins.any(values)


class _Guard(ast.NodeTransformer):
    """Wraps the iterable of every ``for`` statement in ``__nonempty__``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def visit_For(self, node: ast.For) -> ast.AST:
        self.generic_visit(node)
        text = ast.get_source_segment(self.source, node.iter) or "..."
        where = f"at line {node.lineno} (over `{text}`)"
        call = ast.Call(
            func=ast.Name("__nonempty__", ast.Load()),
            args=[node.iter, ast.Constant(where)],
            keywords=[],
        )
        node.iter = ast.copy_location(call, node.iter)
        return node


def guarded(code: str, filename: str) -> Any:
    """``code`` compiled with the vacuous-check guards (the namespace must hold ``GUARDS``)."""
    tree = _Guard(code).visit(ast.parse(code, filename))
    return compile(ast.fix_missing_locations(tree), filename, "exec")


#: what a guarded assert's namespace holds
GUARDS = {"__nonempty__": _nonempty, "all": _all, "any": _any}
