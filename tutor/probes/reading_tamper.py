"""What no answer may do to the names its check relies on (T1, T2, T4, T5 of the reading).

The check of a code or fix drill runs the drill's ``setup`` beside the answer and relies on
what it bound (helpers such as ``_train``, the data, the names ``torch``/``nn``/``F``) and on
torch's own modules and classes. So, for every answer:

- T1: no rebinding, at the module level, of a name the setup binds (any form of binding, a
  ``global`` one inside a function included), of ``torch``/``nn``/``F``, of a builtin the setup
  reads, or of a dunder name; no ``*`` import (its names cannot be read). An import that binds
  a name to what the setup's own import bound it to is not a rebinding.
- T2: no mention at all of a private setup name (``_`` first): those are the check's instruments.
- T4: no attribute or item store/delete (``setattr``/``delattr`` included) on a module, on
  anything reached from a module by name (a class, a function), on a setup function or class,
  or on the class of an object (``type(x)``).
- T5: a module, or a class the answer did not define, appears only as the head of a dotted name,
  called, as an ``isinstance``/``issubclass`` argument, as a class base or exception, in an
  annotation, compared or printed: never bound, stored, passed along, returned or defaulted, so
  that T4 always sees what is being changed.
"""

from __future__ import annotations

import ast

from tutor.probes.reading_core import Reading, literal_name, written
from tutor.probes.reading_lists import GIVEN, NAME_FUNCS, SINKS

_SETUP = "this drill's setup binds it for the check; your code may not rebind it"
_GIVEN = "every answer is given it and the check relies on it; your code may not rebind it"
_READS = "this drill's setup uses this builtin; your code may not rebind it"
_DUNDER = "names like this belong to the interpreter; your code may not bind them"
_STAR = "a `*` import binds names that cannot be read; import the names you use"
_PRIVATE = ("is one of the check's own instruments (a name starting with `_` in this drill's "
            "setup); your code may not use it")  # fmt: skip
_MODULE_VALUE = ("a module may appear only as the head of a dotted name (`torch.NAME`), never "
                 "as a value: bound, stored, passed along or returned")  # fmt: skip
_CLASS_VALUE = ("a class your code did not define may be called, named as a base, or passed to "
                "`isinstance`, never used as a value: bound, stored, passed along or returned")  # fmt: skip


def check_tamper(r: Reading) -> None:
    """Record every T1, T2, T4 and T5 refusal of the answer in ``r``."""
    _rebinding(r)
    for node in r.nodes:
        if isinstance(node, ast.Name):
            _private(r, node)
        if isinstance(node, ast.Attribute | ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):  # fmt: skip
            _patched(r, node, node.value)
        elif (
            isinstance(node, ast.Call)
            and r.builtin_call(node, "setattr", "delattr")
            and literal_name(node.args[1] if len(node.args) > 1 else None)
        ):
            _patched(r, node, node.args[0])
        _as_value(r, node)


def _protected(r: Reading) -> dict[str, str]:
    """The names an answer may not rebind at the module level, and why."""
    names = {n: _SETUP for n in r.setup_bindings if n != "_"}
    names |= {n: _GIVEN for n in GIVEN}
    names |= {n: _READS for n in r.builtin_names() if n not in names}
    return names


def _same_import(r: Reading, name: str, target: str | None) -> bool:
    """Whether binding ``name`` to the import ``target`` is what the setup or the runtime
    already bound it to (``import torch``, the setup's own ``from ... import DataLoader``)."""
    if target is None:
        return False
    if name in r.setup_bindings:
        return all(b.how == "import" and b.target == target for b in r.setup_bindings[name])
    return GIVEN.get(name) == target


def _rebinding(r: Reading) -> None:
    protected = _protected(r)
    for name, bindings in r.scopes.module.bindings.items():
        for b in bindings:
            if name.startswith("__") and name.endswith("__"):
                r.refuse(b.node, name, _DUNDER, "tamper", name)
            elif name in protected and not (b.how == "import" and _same_import(r, name, b.target)):  # fmt: skip
                r.refuse(b.node, name, protected[name], "tamper", name)
    for node in r.nodes:
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            r.refuse(node, written(node), _STAR, "tamper", "*")


def _private(r: Reading, node: ast.Name) -> None:
    name = node.id
    if not name.startswith("_") or name == "_" or name.endswith("__"):
        return
    ref = r.ref(node)
    if ref.where == "setup" or (ref.where == "answer" and name in r.setup_bindings):
        r.refuse(node, name, f"`{name}` {_PRIVATE}", "tamper", name)


def _patched(r: Reading, node: ast.AST, base: ast.AST) -> None:
    """T4: a store or delete at ``node`` into ``base``."""
    if not r.module_state(base):
        return
    kind = r.kind(base)
    what = {
        "module": "a module",
        "class": "a class your code did not define",
        "setup_function": "a function of this drill's setup",
    }.get(kind, "something a module holds")
    why = (f"`{written(base)}` is {what}, shared with the check; your code may not change "
           "its attributes")  # fmt: skip
    r.refuse(node, written(node), why, "tamper", written(base))


def _annotation(r: Reading, node: ast.AST) -> bool:
    """Whether ``node`` sits inside an annotation."""
    child, parent = node, r.parent.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.arg) and parent.annotation is child:
            return True
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef) and parent.returns is child:
            return True
        if isinstance(parent, ast.AnnAssign) and parent.annotation is child:
            return True
        if isinstance(parent, ast.stmt):
            return False
        child, parent = parent, r.parent.get(id(parent))
    return False


def _allowed_place(r: Reading, node: ast.AST) -> bool:  # noqa: C901 - one case per place
    """Whether a module or class at ``node`` is in a place T5 allows."""
    parent = r.parent.get(id(node))
    if isinstance(parent, ast.Attribute) and parent.value is node:
        return True
    if isinstance(parent, ast.Call):
        if parent.func is node:
            return True
        return (
            isinstance(parent.func, ast.Name)
            and parent.func.id in SINKS
            and (r.ref(parent.func).where == "builtin" and node in parent.args)
        )
    if isinstance(parent, ast.Tuple):
        holder = r.parent.get(id(parent))
        if isinstance(holder, ast.ExceptHandler):
            return True
        if isinstance(holder, ast.Call) and r.builtin_call(holder, "isinstance", "issubclass"):
            return parent in holder.args
    if isinstance(parent, ast.ClassDef):
        return node in parent.bases or node in parent.decorator_list
    if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
        return node in parent.decorator_list or parent.returns is node
    if isinstance(parent, ast.ExceptHandler | ast.Raise | ast.Compare | ast.FormattedValue):
        return True
    if isinstance(parent, ast.Expr):
        return True
    return _annotation(r, node)


def _as_value(r: Reading, node: ast.AST) -> None:
    """T5: a module or non-answer class used as a value."""
    if isinstance(node, ast.Attribute | ast.Name) and not isinstance(node.ctx, ast.Load):
        return
    if isinstance(node, ast.Call):
        if not (r.builtin_call(node, "getattr") or r.builtin_call(node, "type")):
            return
    elif not isinstance(node, ast.Attribute | ast.Name):
        return
    if not r.chain_top(node):
        return
    if isinstance(node, ast.Name) and node.id in NAME_FUNCS:
        return
    kind = r.kind(node)
    if kind not in ("module", "class") or _allowed_place(r, node):
        return
    why = _MODULE_VALUE if kind == "module" else _CLASS_VALUE
    r.refuse(node, written(node), why, "tamper", r.path(node) or written(node))
