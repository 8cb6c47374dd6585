"""The rules every answer to a drill with ``forbid`` also follows: no dynamic access.

A rule can only hold for code that can be read. Answers to drills with rules may not build code
or names at run time, nor reach around torch's tracing, so these are refused (torch-free, by
reading the code):

- code built at run time: ``eval``, ``exec``, ``compile``, ``__import__``, ``importlib``;
- names computed at run time: ``getattr``/``setattr``/``delattr``/``hasattr`` with a name that
  is not a string literal, ``globals()``, ``vars()``, ``locals()``, ``__builtins__``, and dunder
  attributes other than ``__init__``/``__name__`` (``x.__dict__``, ``f.__globals__``, ...);
- the interpreter's and torch's insides: ``sys``, ``builtins``, ``gc``, ``inspect``, ``ctypes``,
  ``torch.ops``, ``torch.overrides``, ``torch.library``, and any private name under torch
  (``torch._C``, ``torch.utils._python_dispatch``, ...).

``torch``, ``nn`` and ``F`` (pre-imported), and everything public under them, stay allowed;
the drill's own ``forbid`` list then says what of that is refused.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from tutor.grading.forbid_use import Use

#: maps an expression to the dotted name it stands for (None: not a name)
Resolve = Callable[[ast.AST], str | None]

_BUILT = "code built at run time cannot be checked against this drill's rules"
_COMPUTED = "a name computed at run time cannot be checked against this drill's rules"
_INSIDES = "it reaches around the checks this drill's rules rely on"

#: bare names refused, and why
NAMES = {
    "eval": _BUILT,
    "exec": _BUILT,
    "compile": _BUILT,
    "__import__": _BUILT,
    "globals": _COMPUTED,
    "vars": _COMPUTED,
    "locals": _COMPUTED,
    "__builtins__": _COMPUTED,
    "breakpoint": _INSIDES,
}
#: modules refused (and everything under them)
MODULES = {
    "importlib": _BUILT,
    "sys": _INSIDES,
    "builtins": _INSIDES,
    "gc": _INSIDES,
    "inspect": _INSIDES,
    "ctypes": _INSIDES,
    "torch.ops": _INSIDES,
    "torch.overrides": _INSIDES,
    "torch.library": _INSIDES,
}
_NAME_FUNCS = {"getattr", "setattr", "delattr", "hasattr"}
_DUNDER_OK = {"__init__", "__name__"}


def _under(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


def refused(dotted: str) -> str | None:
    """Why a resolved dotted name is refused (None: allowed)."""
    for module, why in MODULES.items():
        if _under(dotted, module):
            return why
    parts = dotted.split(".")
    if parts[0] == "torch" and any(p.startswith("_") for p in parts[1:]):
        return "private torch names reach around the checks this drill's rules rely on"
    return None


def _dunder(attr: str) -> bool:
    """A dunder attribute other than the harmless ``__init__``/``__name__``."""
    return attr.startswith("__") and attr.endswith("__") and attr not in _DUNDER_OK


def _computed_name(node: ast.Call) -> str | None:
    """The function's name for ``getattr(x, name)`` & co. with a name that is not a plain
    string literal (None: not such a call)."""
    if not (isinstance(node.func, ast.Name) and node.func.id in _NAME_FUNCS):
        return None
    if len(node.args) < 2:
        return None
    attr = node.args[1]
    if not (isinstance(attr, ast.Constant) and isinstance(attr.value, str)):
        return node.func.id
    return node.func.id if _dunder(attr.value) else None


def _imports(node: ast.AST) -> list[tuple[str, str]]:
    """(dotted name, as written) of what an import statement brings in."""
    if isinstance(node, ast.Import):
        return [(a.name, f"import {a.name}") for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        return [(f"{node.module}.{a.name}", f"from {node.module} import {a.name}")
                for a in node.names]  # fmt: skip
    return []


def _use(node: ast.AST, resolve: Resolve) -> list[Use]:
    line = getattr(node, "lineno", 0)
    if isinstance(node, ast.Name) and node.id in NAMES:
        return [Use(node.id, line, node.id, NAMES[node.id])]
    if isinstance(node, ast.Attribute) and _dunder(node.attr):
        return [Use(node.attr, line, ast.unparse(node), _COMPUTED)]
    computed = _computed_name(node) if isinstance(node, ast.Call) else None
    if computed:
        return [Use(computed, line, ast.unparse(node), _COMPUTED)]
    found = []
    for name, written in _imports(node):
        why = refused(name)
        if why:
            found.append(Use(name, line, written, why))
    if isinstance(node, ast.Name | ast.Attribute) and not isinstance(node.ctx, ast.Store):
        resolved = resolve(node)
        why = refused(resolved) if resolved else None
        if resolved and why:
            found.append(Use(resolved, line, ast.unparse(node), why))
    return found


def dynamic_uses(tree: ast.AST, resolve: Resolve) -> list[Use]:
    """Every dynamic access in ``tree``; ``resolve`` maps an expression to its dotted name."""
    found: list[Use] = []
    for node in ast.walk(tree):
        found += _use(node, resolve)
    return _first_each(found)


def _first_each(uses: list[Use]) -> list[Use]:
    """One use per line and reason: the first found, which ``ast.walk`` (outermost first)
    makes ``torch._C.DisableTorchFunction`` rather than its inner ``torch._C``."""
    seen: dict[tuple[int, str], Use] = {}
    for u in uses:
        seen.setdefault((u.line, u.why), u)
    return sorted(seen.values(), key=lambda u: (u.line, u.name))
