"""A drill's rules, proved from the text (``forbid``, ``allow``, and what any rule implies).

Under any rule (``forbid``, ``allow`` or ``max_lines``) an answer may only use what the reading
can follow: every name resolves; imports are torch and its public modules; a chain of
attributes stays in torch (``torch.storage.np`` is numpy); no private torch name, no
``torch.ops``/``torch.overrides``/``torch.library``, no threads or processes (nor a DataLoader
with workers), no Tensor subclass.

``forbid`` refuses keywords (``for`` also refuses ``map``, ``filter``, ``functools.reduce``,
``itertools``, ``iter(f, stop)``, ``key=`` functions, ``Tensor.apply_``/``map_`` and recursion;
``while`` recursion too), builtins by bare name, and dotted names: the name through any alias,
the method of the same name on anything but a module (``x.outer`` for ``torch.outer``), the
tensor methods that enter a forbidden namespace (``x.backward()`` for ``torch.autograd``), the
builtins that call it on a tensor (``reversed`` for ``torch.flip``) and the operators that reach
it (``*`` for ``torch.mul``).

``allow`` is a whitelist: every torch name the answer calls or names (dtypes and constants
aside), every tensor attribute it reads (``x.sum``, ``x.T``; ``shape``, ``dtype``, ``device``
and ``ndim`` aside) and every builtin it uses (``reading_lists.DEFAULT_BUILTINS`` aside) must be
allowed: by its full name, a listed module, ``torch.X`` for the method ``.X``, a bare builtin
name, or for a builtin the tensor methods it calls (``reversed`` with ``torch.flip``).
"""

from __future__ import annotations

import ast

from tutor.probes import reading_lists as lists
from tutor.probes.reading_core import Reading, Rule, written
from tutor.probes.reading_recursion import recursive_calls
from tutor.probes.reading_resolve import Kind

_NOT_ALLOWED = "not in this drill's `allow` list"
_INSIDES = "it reaches around the checks this drill's rules rely on"
_PROCESSES = "processes run code the reading cannot follow, so the rules cannot be checked there"
_THREADS = "threads run code the reading cannot follow, so the rules cannot be checked there"


def normalize(entry: str) -> str:
    """A ``forbid``/``allow`` entry with the given aliases written out (``F.linear``)."""
    head, dot, rest = entry.partition(".")
    return (
        f"{lists.GIVEN[head]}.{rest}" if dot and head in lists.GIVEN and head != "torch" else entry
    )


def check_rules(r: Reading, forbid: list[str], allow: list[str]) -> None:
    """Record every refusal the drill's rules imply for the answer in ``r``."""
    forbid = [normalize(f) for f in forbid]
    allow = [normalize(a) for a in allow]
    _anything(r)
    if forbid:
        _forbid(r, forbid)
    if allow:
        _allow(r, allow)


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    return [base] + [f"{base}.{a.name}" for a in node.names if a.name != "*"]


def _setup_head(r: Reading, node: ast.AST) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and r.ref(node).where == "setup"


def _leaves_torch(canonical: str) -> str:
    top = canonical.split(".")[0]
    if top in lists.ARRAY_LIBRARIES:
        return f"`{top}` is another array library: under this drill's rules only torch computes"
    if top in lists.THREADS:
        return _THREADS
    if top in lists.PROCESSES or (
        top == "os" and canonical.split(".")[-1].startswith(lists.OS_PROCESSES)
    ):
        return _PROCESSES
    return f"it leaves torch (it is `{canonical}`): this drill's rules let an answer use only torch"


def _torch_refusal(canonical: str) -> str | None:
    parts = canonical.split(".")
    if any(p.startswith("_") and p not in lists.DUNDER_OK for p in parts[1:]):
        return "private torch names reach around the checks this drill's rules rely on"
    for inside in lists.TORCH_INSIDES:
        if canonical == inside or canonical.startswith(inside + "."):
            return f"{_INSIDES} (`{inside}`)"
    if any(canonical == p or canonical.startswith(p + ".") for p in lists.TORCH_PROCESSES):
        return _PROCESSES
    if canonical in lists.TORCH_THREADS:
        return _THREADS
    return None


_UNDEFINED = "it is defined nowhere: not in your code, the drill's setup or Python's builtins"
_IMPORT = "this drill's rules let an answer import only torch and its public modules"
_SUBCLASS = "a subclass of Tensor changes what torch calls on it do; the rules could not hold"
_LOADERS = ("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader")


def _import_refusal(r: Reading, node: ast.Import | ast.ImportFrom) -> tuple[str, str] | None:
    """(module, why) for the first thing an import brings in that the rules refuse."""
    for name in _imported(node):
        canonical = r.find(name).name
        why = _torch_refusal(canonical)
        if why is None and canonical.split(".")[0] != "torch":
            why = _IMPORT
        if why is not None:
            return name, why
    return None


def _chain_refusal(r: Reading, node: ast.AST, p: str) -> str | None:
    canonical = r.find(p).name
    if canonical.split(".")[0] != "torch":
        return _leaves_torch(canonical)
    why = _torch_refusal(canonical)
    if why is None and canonical in _LOADERS:
        why = _workers(r, node)
    return why


def _anything(r: Reading) -> None:
    """What every rule implies."""
    for node in r.nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if r.ref(node).where == "unbound":
                r.refuse(node, node.id, _UNDEFINED, "rules", node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found = _import_refusal(r, node)
            if found is not None:
                r.refuse(node, written(node), found[1], "rules", found[0])
        elif isinstance(node, ast.ClassDef) and _tensor_class(r, node):
            r.refuse(node, node.name, _SUBCLASS, "rules", "torch.Tensor")
    for node, p in r.chains():
        why = None if _setup_head(r, node) else _chain_refusal(r, node, p)
        if why is not None:
            r.refuse(node, written(node), why, "rules", r.find(p).name)


def _workers(r: Reading, node: ast.AST) -> str | None:
    call = r.parent.get(id(node))
    if not (isinstance(call, ast.Call) and call.func is node):
        return None
    for k in call.keywords:
        zero = isinstance(k.value, ast.Constant) and k.value.value == 0
        if k.arg is None or (k.arg == "num_workers" and not zero):
            return "a DataLoader with workers runs the dataset in other processes: " + _PROCESSES
    return _PROCESSES if len(call.args) > 5 else None


def _tensor_class(r: Reading, node: ast.ClassDef, seen: frozenset[int] = frozenset()) -> bool:
    """Whether a class of the answer derives from ``torch.Tensor`` (through its own classes too)."""
    for base in node.bases:
        p = r.path(base)
        if p is not None and r.find(p).tensor:
            return True
        if isinstance(base, ast.Name) and id(node) not in seen:
            for b in r.ref(base).bindings:
                if isinstance(b.node, ast.ClassDef) and _tensor_class(r, b.node, seen | {id(node)}):
                    return True
    return False


# -- forbid


def _matches(r: Reading, canonical: str, path: str, entry: str) -> bool:
    for name in (canonical, path):
        if name == entry or name.startswith(entry + "."):
            return True
    return "." in entry and r.resolver.same(canonical, entry)


def _methods(forbid: list[str]) -> dict[str, str]:
    """Tensor method name -> the forbid entry that refuses it."""
    found: dict[str, str] = {}
    for entry in forbid:
        head, _, last = entry.rpartition(".")
        if head in ("torch", "torch.Tensor"):
            found.setdefault(last, entry)
        for method in lists.METHODS_INTO.get(entry, ()):
            found.setdefault(method, entry)
    return found


def _not_module(r: Reading, base: ast.AST) -> bool:
    """Whether ``base`` is surely not a module (a value, or a chain known to be no module)."""
    p = r.path(base)
    return p is None or r.find(p).kind not in (Kind.MODULE, Kind.UNKNOWN)


def _forbid(r: Reading, forbid: list[str]) -> None:
    keywords = [k for k in forbid if k in lists.KEYWORDS]
    builtins = {f for f in forbid if f not in lists.KEYWORDS and "." not in f}
    dotted = [f for f in forbid if "." in f]
    loops = "for" in keywords
    methods = _methods(dotted)
    for node in r.nodes:
        for kw in keywords:
            if type(node).__name__ in lists.KEYWORD_NODES[kw]:
                at = node.target if isinstance(node, ast.comprehension) else node
                rule: Rule = "loop" if kw in ("for", "while") else "forbidden"
                what = "loops (comprehensions count)" if kw == "for" else f"`{kw}`"
                r.refuse(at, kw, f"this drill forbids {what}", rule, kw)
        if isinstance(node, ast.Name) and r.ref(node).where == "builtin":
            _builtin(r, node, builtins, methods, loops)
        elif (got := r.attribute(node)) and got[1] in (methods.keys() | (lists.LOOP_METHODS if loops else set())):  # fmt: skip
            base, attr = got
            if _not_module(r, base):
                entry = methods.get(attr, "for")
                kind: Rule = "loop" if entry == "for" else "forbidden"
                why = f"on a tensor, `.{attr}` is what this drill forbids (`{entry}`)"
                r.refuse(node, written(node), why, kind, entry)
        elif isinstance(node, ast.BinOp | ast.AugAssign | ast.UnaryOp | ast.Compare):
            ops = node.ops if isinstance(node, ast.Compare) else [node.op]
            for op in ops:
                entry = methods.get(lists.OPERATOR_METHODS.get(type(op).__name__, ""), "")
                if entry:
                    why = f"on tensors this operator calls what this drill forbids (`{entry}`)"
                    r.refuse(node, written(node), why, "forbidden", entry)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for name in _imported(node):
                for entry in dotted:
                    if _matches(r, r.find(name).name, name, entry):
                        r.refuse(node, written(node), f"this drill forbids `{entry}`", "forbidden", entry)  # fmt: skip
        if loops and isinstance(node, ast.Call) and _disguised(r, node):
            r.refuse(node, written(node.func), "a loop in disguise: this drill forbids loops", "loop", "for")  # fmt: skip
    for node, p in r.chains():
        canonical = r.find(p).name
        for entry in dotted:
            if _matches(r, canonical, p, entry):
                r.refuse(node, written(node), f"this drill forbids `{entry}`", "forbidden", entry)
        if loops and any(
            canonical == m or canonical.startswith(m + ".") for m in lists.LOOP_MODULES
        ):
            r.refuse(node, written(node), "a loop in disguise: this drill forbids loops", "loop", "for")  # fmt: skip
    if "for" in keywords or "while" in keywords:
        for call in recursive_calls(r):
            why = "a function that calls itself is a loop in disguise: this drill forbids loops"
            r.refuse(call, written(call.func), why, "loop", "for" if loops else "while")


def _builtin(r: Reading, node: ast.Name, builtins: set[str], methods: dict[str, str], loops: bool) -> None:  # fmt: skip
    if node.id in builtins:
        r.refuse(node, node.id, f"this drill forbids `{node.id}`", "forbidden", node.id)
    elif loops and node.id in lists.LOOP_BUILTINS:
        r.refuse(node, node.id, "a loop in disguise: this drill forbids loops", "loop", "for")
    for method in lists.BUILTIN_METHODS.get(node.id, ()):
        if method in methods:
            why = f"on a tensor, `{node.id}` calls `Tensor.{method}`, which this drill forbids"
            r.refuse(node, node.id, why, "forbidden", methods[method])
            return


def _disguised(r: Reading, node: ast.Call) -> bool:
    """``iter(f, stop)`` and ``sorted``/``min``/``max`` with a ``key`` function."""
    if r.builtin_call(node, "iter") and len(node.args) == 2:
        return True
    return r.builtin_call(node, "sorted", "min", "max") and any(
        k.arg == "key" for k in node.keywords
    )


# -- allow


def _allowed(r: Reading, canonical: str, path: str, allow: list[str]) -> bool:
    if any(_matches(r, canonical, path, a) for a in allow if "." in a or a == "torch"):
        return True
    head, _, last = canonical.rpartition(".")
    return head == "torch.Tensor" and f"torch.{last}" in allow


def _method_allowed(r: Reading, method: str, allow: list[str]) -> bool:
    return any(
        _allowed(r, name, name, allow) for name in (f"torch.Tensor.{method}", f"torch.{method}")
    )


def _allow(r: Reading, allow: list[str]) -> None:
    bare = {a for a in allow if "." not in a and a != "torch"}
    for node, p in r.chains():
        canonical = r.find(p).name
        if canonical.split(".")[0] != "torch" or p == "torch" or _allowed(r, canonical, p, allow):
            continue
        parent = r.parent.get(id(node))
        called = isinstance(parent, ast.Call) and parent.func is node
        if called or r.find(p).kind in (Kind.MODULE, Kind.CLASS, Kind.CALLABLE, Kind.MISSING):
            r.refuse(node, written(node), _NOT_ALLOWED, "not_allowed", canonical)
    for node in r.nodes:
        got = r.attribute(node)
        if got is not None and r.path(got[0]) is None:
            attr = got[1]
            if (
                attr in lists.ALWAYS_ATTRIBUTES
                or attr.startswith("__")
                or not r.resolver.tensor_attribute(attr)
            ):
                continue
            if not _method_allowed(r, attr, allow):
                why = f"`Tensor.{attr}` is {_NOT_ALLOWED}"
                r.refuse(node, written(node), why, "not_allowed", f"Tensor.{attr}")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            name = node.id
            if r.ref(node).where != "builtin" or name in lists.DEFAULT_BUILTINS or name in bare:
                continue
            methods = lists.BUILTIN_METHODS.get(name, ())
            if methods and all(_method_allowed(r, m, allow) for m in methods):
                continue
            calls = f" (on a tensor it calls `Tensor.{methods[-1]}`)" if methods else ""
            why = f"the builtin `{name}` is {_NOT_ALLOWED}{calls}"
            r.refuse(node, name, why, "not_allowed", name)
