"""The AST half of ``forbid``: find loops and refused calls in the learner's code, torch-free.

``forbid`` lists Python keywords (``for`` — comprehensions count —, ``while``, ``if``,
``lambda``, ``import``, ``try``, ``with``, ``class``) and dotted names (``torch.outer``). Names
are resolved through the learner's own aliases: ``import torch as t``, ``from torch import
outer as o``, ``f = torch.outer`` and ``getattr(torch, "outer")`` all reach ``torch.outer``;
``nn`` and ``F`` are pre-imported as ``torch.nn`` and ``torch.nn.functional``. Forbidding a
module (``torch.linalg``) forbids everything under it. What the code reaches at run time by
other means is caught by the runtime trace (``tutor.probes.forbid_trace``). Forbidding a
namespace forbids the tensor methods that enter it (``torch.autograd``: ``x.backward()``).
Answers to drills with rules are also refused any dynamic access (``forbid_dynamic``).

``allow`` is the other way round: the only torch functions an answer may call. Here every call
whose callee resolves to a name under torch must be allowed (``torch.where`` allows itself,
``torch.Tensor.where`` and everything under a listed module); tensor methods (``x.sum()``),
which reading cannot tell from other methods, are left to the runtime trace.
"""

from __future__ import annotations

import ast

from tutor.grading.forbid_dynamic import dynamic_uses
from tutor.grading.forbid_use import METHODS_INTO, Use

#: keyword -> the AST node types that count as using it
KEYWORDS: dict[str, tuple[type[ast.AST], ...]] = {
    "for": (ast.For, ast.AsyncFor, ast.comprehension),
    "while": (ast.While,),
    "if": (ast.If, ast.IfExp),
    "lambda": (ast.Lambda,),
    "import": (ast.Import, ast.ImportFrom),
    "try": (ast.Try, ast.TryStar),
    "with": (ast.With, ast.AsyncWith),
    "class": (ast.ClassDef,),
}
PREIMPORTED = {"torch": "torch", "nn": "torch.nn", "F": "torch.nn.functional"}


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


class _Aliases:
    """What each bare name of the learner's code refers to, as a dotted name."""

    def __init__(self, tree: ast.AST) -> None:
        self.names = dict(PREIMPORTED)
        self.star: list[str] = []
        nodes = list(ast.walk(tree))
        for _ in range(4):  # a few rounds settle chains like `a = torch; b = a.outer`
            for node in nodes:
                self._learn(node)

    def _learn(self, node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    self.names[a.asname] = a.name
                else:
                    top = a.name.split(".")[0]
                    self.names[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if a.name == "*":
                    self.star.append(node.module)
                else:
                    self.names[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            value = self.resolve(node.value)
            if isinstance(target, ast.Name) and value and value.split(".")[0] in ("torch",):
                self.names[target.id] = value

    def resolve(self, node: ast.AST) -> str | None:
        """The dotted name an expression refers to, through the aliases (None if unknown)."""
        if isinstance(node, ast.Call) and _dotted(node.func) == "getattr" and len(node.args) >= 2:
            base = self.resolve(node.args[0])
            attr = node.args[1]
            if base and isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                return f"{base}.{attr.value}"
            return None
        dotted = _dotted(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        base = self.names.get(head, head)
        return f"{base}.{rest}" if rest else base


def _matches(name: str, forbidden: str) -> bool:
    return name == forbidden or name.startswith(forbidden + ".")


NOT_ALLOWED = "not in this drill's `allow` list"


def allowed(name: str, allow: list[str]) -> bool:
    """Whether a resolved dotted name under torch may be called under ``allow``."""
    head, _, last = name.rpartition(".")
    if head == "torch.Tensor" and f"torch.{last}" in allow:
        return True
    return any(_matches(name, a) for a in allow)


def _disallowed(tree: ast.AST, aliases: _Aliases, allow: list[str]) -> list[Use]:
    """The calls of torch functions that ``allow`` does not list (first line of each)."""
    found: dict[str, Use] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = aliases.resolve(node.func)
        if name and name.split(".")[0] == "torch" and not allowed(name, allow):
            line = getattr(node, "lineno", 0)
            if name not in found or line < found[name].line:
                found[name] = Use(name, line, ast.unparse(node.func), NOT_ALLOWED)
    return list(found.values())


def find_forbidden(code: str, forbid: list[str], allow: list[str] | None = None) -> list[Use]:
    """Every forbidden construct the code uses (one ``Use`` per entry, at its first line),
    every call of a torch function ``allow`` does not list (when it is not empty), then, when
    the drill has either rule, every dynamic access (``forbid_dynamic``).

    Raises SyntaxError when the code does not parse.
    """
    allow = list(allow or [])
    tree = ast.parse(code)
    keywords = {k for k in forbid if k in KEYWORDS}
    dotted = [d for d in forbid if d not in KEYWORDS]
    aliases = _Aliases(tree) if dotted else None
    found: dict[str, Use] = {}

    def note(name: str, node: ast.AST, written: str) -> None:
        line = getattr(node, "lineno", 0)
        if name not in found or line < found[name].line:
            found[name] = Use(name, line, written)

    for node in ast.walk(tree):
        for kw in keywords:
            if isinstance(node, KEYWORDS[kw]):
                target = node.target if isinstance(node, ast.comprehension) else node
                note(kw, target, kw)
        if aliases is None:
            continue
        candidates: list[tuple[str, str]] = []
        if isinstance(node, ast.Name | ast.Attribute | ast.Call) and not isinstance(
            getattr(node, "ctx", ast.Load()), ast.Store
        ):
            name = aliases.resolve(node)
            if name:
                candidates.append((name, ast.unparse(node)))
                if isinstance(node, ast.Name) and node.id not in aliases.names:
                    candidates += [(f"{m}.{node.id}", node.id) for m in aliases.star]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                candidates.append(
                    (f"{node.module}.{a.name}", f"from {node.module} import {a.name}")
                )
        elif isinstance(node, ast.Import):
            candidates += [(a.name, f"import {a.name}") for a in node.names]
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
            for f in dotted:
                if node.attr in METHODS_INTO.get(f, ()):
                    note(f, node, f"{ast.unparse(node)}")
        for name, written in candidates:
            for f in dotted:
                if _matches(name, f):
                    note(f, node, written)
    if allow:
        found.update(
            {f"allow:{u.name}": u for u in _disallowed(tree, aliases or _Aliases(tree), allow)}
        )
    uses = sorted(found.values(), key=lambda u: (u.line, u.name))
    if forbid or allow:
        resolve = aliases.resolve if aliases is not None else _Aliases(tree).resolve
        uses += dynamic_uses(tree, resolve)
    return uses
