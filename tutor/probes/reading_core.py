"""The state of one reading: the answer's tree, its names, and what its dotted names reach.

``Reading`` is what the rule checkers (``reading_tamper``, ``reading_rules``, ``reading_lines``)
share: the parsed answer with each node's parent, ``Names`` over the drill's setup, the
resolver, and the refusals found so far (``refuse``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Literal

from tutor.probes.reading_lists import BUILTIN_NAMES, DUNDER_OK
from tutor.probes.reading_names import Binding, Names, Ref, Scopes, module_bindings
from tutor.probes.reading_resolve import Found, Kind, Resolver

Rule = Literal["tamper", "dynamic", "forbidden", "loop", "not_allowed", "rules", "max_lines"]


@dataclass(frozen=True)
class Refusal:
    """One thing the reading refuses: where, as written, why, which rule, and the name it
    concerns (a ``forbid`` entry, a module, a setup name)."""

    line: int
    written: str
    why: str
    rule: Rule
    name: str = ""

    def __str__(self) -> str:
        if not self.line:
            return self.why
        return f"line {self.line}: `{self.written}`: {self.why}"


def dunder(name: str) -> bool:
    """A dunder name other than the harmless ``__init__``/``__name__``."""
    return len(name) > 4 and name.startswith("__") and name.endswith("__") and name not in DUNDER_OK


def written(node: ast.AST, limit: int = 60) -> str:
    """How the code writes ``node``, shortened to one line of at most ``limit`` characters."""
    try:
        text = " ".join(ast.unparse(node).split())
    except (ValueError, RecursionError):
        text = type(node).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def literal_name(node: ast.AST | None) -> str | None:
    """The string of a string literal (None for anything else)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class Reading:
    """One answer being read against one drill's setup."""

    def __init__(self, tree: ast.Module, setup: ast.Module | None, resolver: Resolver) -> None:
        self.tree = tree
        self.scopes = Scopes(tree)
        self.setup_bindings: dict[str, list[Binding]] = module_bindings(setup) if setup else {}
        self.setup_tree = setup
        self.names = Names(self.scopes, self.setup_bindings)
        self.resolver = resolver
        self.nodes: list[ast.AST] = list(ast.walk(tree))
        self.parent: dict[int, ast.AST] = {}
        for node in self.nodes:
            for child in ast.iter_child_nodes(node):
                self.parent[id(child)] = node
        self.refusals: list[Refusal] = []
        self._found: dict[str, Found] = {}
        self._refs: dict[int, Ref] = {}
        self._paths: dict[int, str | None] = {}
        self._chains: list[tuple[ast.AST, str]] | None = None

    def refuse(self, node: ast.AST | int, text: str, why: str, rule: Rule, name: str = "") -> None:
        """Record a refusal at ``node``'s line (or at line ``node``)."""
        line = node if isinstance(node, int) else getattr(node, "lineno", 0)
        self.refusals.append(Refusal(line, text, why, rule, name))

    def ref(self, node: ast.Name) -> Ref:
        """Where the name ``node`` comes from."""
        found = self._refs.get(id(node))
        if found is None:
            found = self._refs[id(node)] = self.names.ref(node)
        return found

    def find(self, dotted: str) -> Found:
        """The resolver's answer for ``dotted`` (cached)."""
        found = self._found.get(dotted)
        if found is None:
            found = self.resolver.find(dotted)
            self._found[dotted] = found
        return found

    def head(self, node: ast.Name) -> str | None:
        """The dotted name a bare name stands for when every binding of it is the same import,
        it is a given name (``torch``, ``nn``, ``F``) or a name a ``*`` import may bind."""
        r = self.ref(node)
        return r.target if r.where != "builtin" else None

    def path(self, node: ast.AST) -> str | None:
        """The dotted name, as written through aliases, of a chain such as ``t.optim.SGD`` or
        ``getattr(torch, "outer")`` (None: not a chain from an import or a given name)."""
        key = id(node)
        if key not in self._paths:
            self._paths[key] = self._path(node)
        return self._paths[key]

    def chains(self) -> list[tuple[ast.AST, str]]:
        """Every dotted name the answer writes (its outermost part), with its path."""
        if self._chains is None:
            self._chains = []
            for node in self.nodes:
                if isinstance(node, ast.Name | ast.Attribute | ast.Call) and self.chain_top(node):
                    p = self.path(node)
                    if p is not None:
                        self._chains.append((node, p))
        return self._chains

    def _path(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            return self.head(node)
        if isinstance(node, ast.Attribute):
            base = self.path(node.value)
            return f"{base}.{node.attr}" if base else None
        if (
            isinstance(node, ast.Call)
            and self.builtin_call(node, "getattr")
            and len(node.args) == 2
        ):
            base, attr = self.path(node.args[0]), literal_name(node.args[1])
            return f"{base}.{attr}" if base and attr else None
        return None

    def attribute(self, node: ast.AST) -> tuple[ast.AST, str] | None:
        """``(base, name)`` of an attribute read, written ``x.name`` or ``getattr(x, "name")``."""
        if isinstance(node, ast.Attribute):
            return node.value, node.attr
        if (
            isinstance(node, ast.Call)
            and self.builtin_call(node, "getattr")
            and len(node.args) >= 2
        ):
            name = literal_name(node.args[1])
            return (node.args[0], name) if name else None
        return None

    def canonical(self, node: ast.AST) -> str | None:
        """The canonical dotted name of a chain (``torch.storage.np`` -> ``numpy``)."""
        p = self.path(node)
        return self.find(p).name if p else None

    def builtin_call(self, node: ast.Call, *names: str) -> bool:
        """Whether ``node`` calls one of the builtins ``names`` (not shadowed)."""
        f = node.func
        return isinstance(f, ast.Name) and f.id in names and self.ref(f).where == "builtin"

    def is_builtin(self, node: ast.AST, *names: str) -> bool:
        """Whether ``node`` is the bare name of one of the builtins ``names`` (not shadowed)."""
        return isinstance(node, ast.Name) and node.id in names and self.ref(node).where == "builtin"

    def chain_top(self, node: ast.AST) -> bool:
        """Whether ``node`` is the outermost part of a dotted chain (not the base of a longer
        one): ``torch.nn.Linear`` in ``torch.nn.Linear(3, 4)``, not ``torch.nn``."""
        parent = self.parent.get(id(node))
        return not (isinstance(parent, ast.Attribute) and parent.value is node)

    def kind(self, node: ast.AST) -> str:
        """What an expression is, as far as patching goes: ``module``, ``class`` (one the
        answer did not define), ``setup_function``, or ``other``."""
        if isinstance(node, ast.Call) and self.builtin_call(node, "type") and len(node.args) == 1:
            return "class"
        p = self.path(node)
        if p is not None:
            k = self.find(p).kind
            return {Kind.MODULE: "module", Kind.CLASS: "class"}.get(k, "other")
        if isinstance(node, ast.Name):
            r = self.ref(node)
            if r.where == "setup" and r.bindings and all(b.how == "def" for b in r.bindings):
                return "setup_function"
            if r.where == "setup" and r.bindings and all(b.how == "class" for b in r.bindings):
                return "class"
        return "other"

    def module_state(self, node: ast.AST) -> bool:
        """Whether an expression is something a module holds: a chain from an import or a
        given name, a setup function or class, or the class of an object (``type(x)``)."""
        return self.path(node) is not None or self.kind(node) in ("class", "setup_function")

    def builtin_names(self) -> set[str]:
        """The builtins the drill's setup reads (a module-level name shadows them for it)."""
        if self.setup_tree is None:
            return set()
        found = {n.id for n in ast.walk(self.setup_tree) if isinstance(n, ast.Name)}
        return found & BUILTIN_NAMES
