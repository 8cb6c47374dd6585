"""Python's scopes, read from the text: what each name of an answer refers to (torch-free).

``Scopes(tree)`` records every binding of the code (assignments of every form, ``del``,
``def``, ``class``, imports, ``for``/``with``/``except`` targets, walrus, ``match`` captures,
parameters) in the scope Python puts it in, following ``global`` and ``nonlocal``. ``Names``
then says, for each ``ast.Name``, where its value comes from: a local or enclosing function
scope, the answer's module level, the drill's setup (which ran before the answer, in the same
namespace), the names every answer is given (``torch``, ``nn``, ``F``), a builtin, or nowhere.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Literal

from tutor.probes.reading_lists import BUILTIN_NAMES, GIVEN

ScopeKind = Literal["module", "function", "class", "comprehension"]
Where = Literal["local", "answer", "setup", "given", "star", "builtin", "unbound"]


@dataclass(frozen=True)
class Binding:
    """One binding of a name: the node that binds it, how (``import``, ``def``, ``class``,
    ``param`` or ``assign`` for every other form), and for an import the dotted name bound."""

    name: str
    node: ast.AST
    how: str
    target: str | None = None
    declared_global: bool = False

    @property
    def line(self) -> int:
        """The line of the binding."""
        return getattr(self.node, "lineno", 0)


@dataclass(eq=False)
class Scope:
    """One scope: its bindings, its ``global``/``nonlocal`` names, its ``*`` imports."""

    kind: ScopeKind
    node: ast.AST
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    globals_: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    star: list[str] = field(default_factory=list)

    def bind(self, b: Binding) -> None:
        """Record ``b`` here."""
        self.bindings.setdefault(b.name, []).append(b)


@dataclass(frozen=True)
class Ref:
    """Where a name's value comes from, and the bindings that give it (none for a builtin)."""

    where: Where
    name: str
    bindings: tuple[Binding, ...] = ()
    target: str | None = None


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


class Scopes:
    """The scopes of one module's code, and the scope each node is read in."""

    def __init__(self, tree: ast.Module) -> None:
        self.module = Scope("module", tree, None)
        self.of: dict[int, Scope] = {}
        self._visit_body(tree.body, self.module)

    # -- binding
    def _bind(self, scope: Scope, name: str, node: ast.AST, how: str, target: str | None = None) -> None:  # fmt: skip
        if scope.kind != "module" and name in scope.globals_:
            self.module.bind(Binding(name, node, how, target, declared_global=True))
        elif name in scope.nonlocals:
            owner = self._enclosing_function(scope, name)
            if owner is not None:
                owner.bind(Binding(name, node, how, target))
        else:
            scope.bind(Binding(name, node, how, target))

    def _enclosing_function(self, scope: Scope, name: str) -> Scope | None:
        p = scope.parent
        while p is not None and p.kind != "module":
            if p.kind == "function" and name in p.bindings:
                return p
            p = p.parent
        return None

    def _declare(self, body: list[ast.stmt], scope: Scope) -> None:
        """The ``global`` and ``nonlocal`` statements of a function body (not nested ones)."""
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Global):
                scope.globals_.update(node.names)
            elif isinstance(node, ast.Nonlocal):
                scope.nonlocals.update(node.names)
            elif not isinstance(node, (*_FUNCS, ast.ClassDef, *_COMPS)):
                stack.extend(ast.iter_child_nodes(node))

    # -- walking
    def _visit_body(self, body: list[ast.stmt], scope: Scope) -> None:
        for stmt in body:
            self._visit(stmt, scope)

    def _visit_all(self, nodes: list[ast.AST | None], scope: Scope) -> None:
        for n in nodes:
            if n is not None:
                self._visit(n, scope)

    def _visit(self, node: ast.AST, scope: Scope) -> None:  # noqa: C901 - one case per node kind
        self.of[id(node)] = scope
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self._visit_all([*node.decorator_list, node.returns], scope)
            self._arguments(node.args, scope)
            self._bind(scope, node.name, node, "def")
            inner = Scope("function", node, scope)
            self._declare(node.body, inner)
            self._params(node.args, inner)
            self._visit_body(node.body, inner)
        elif isinstance(node, ast.Lambda):
            self._arguments(node.args, scope)
            inner = Scope("function", node, scope)
            self._params(node.args, inner)
            self._visit(node.body, inner)
        elif isinstance(node, ast.ClassDef):
            self._visit_all([*node.decorator_list, *node.bases, *node.keywords], scope)
            self._bind(scope, node.name, node, "class")
            inner = Scope("class", node, scope)
            self._declare(node.body, inner)
            self._visit_body(node.body, inner)
        elif isinstance(node, _COMPS):
            self._comprehension(node, scope)
        elif isinstance(node, ast.Import):
            for a in node.names:
                self.of[id(a)] = scope
                if a.asname:
                    self._bind(scope, a.asname, a, "import", a.name)
                else:
                    top = a.name.split(".")[0]
                    self._bind(scope, top, a, "import", top)
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                self.of[id(a)] = scope
                if a.name == "*":
                    scope.star.append(node.module or "")
                else:
                    target = f"{node.module}.{a.name}" if node.module and not node.level else None
                    self._bind(scope, a.asname or a.name, a, "import", target)
        elif isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store | ast.Del):
                self._bind(scope, node.id, node, "assign")
        elif isinstance(node, ast.NamedExpr):
            owner = scope
            while owner.kind == "comprehension" and owner.parent is not None:
                owner = owner.parent
            self.of[id(node.target)] = owner
            self._bind(owner, node.target.id, node.target, "assign")
            self._visit(node.value, scope)
        elif isinstance(node, ast.ExceptHandler):
            if node.name:
                self._bind(scope, node.name, node, "assign")
            self._visit_all([node.type, *node.body], scope)
        elif isinstance(node, ast.MatchAs | ast.MatchStar):
            if node.name:
                self._bind(scope, node.name, node, "assign")
            for child in ast.iter_child_nodes(node):
                self._visit(child, scope)
        elif isinstance(node, ast.MatchMapping):
            if node.rest:
                self._bind(scope, node.rest, node, "assign")
            for child in ast.iter_child_nodes(node):
                self._visit(child, scope)
        elif type(node).__name__ == "TypeAlias":  # `type X = ...` (Python 3.12)
            fields = dict(ast.iter_fields(node))
            self._bind(scope, fields["name"].id, node, "assign")
            self.of[id(fields["name"])] = scope
            self._visit(fields["value"], scope)
        else:
            for child in ast.iter_child_nodes(node):
                self._visit(child, scope)

    def _arguments(self, args: ast.arguments, scope: Scope) -> None:
        """Defaults and annotations: evaluated where the function is defined."""
        self.of[id(args)] = scope
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        self._visit_all([*args.defaults, *args.kw_defaults], scope)
        self._visit_all([a.annotation for a in every if a is not None], scope)

    def _params(self, args: ast.arguments, inner: Scope) -> None:
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                self.of[id(a)] = inner
                self._bind(inner, a.arg, a, "param")

    def _comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, scope: Scope
    ) -> None:
        gens = node.generators
        self._visit(gens[0].iter, scope)
        inner = Scope("comprehension", node, scope)
        for i, gen in enumerate(gens):
            self.of[id(gen)] = inner
            if i:
                self._visit(gen.iter, inner)
            self._visit(gen.target, inner)
            self._visit_all(list(gen.ifs), inner)
        if isinstance(node, ast.DictComp):
            self._visit_all([node.key, node.value], inner)
        else:
            self._visit(node.elt, inner)


def module_bindings(tree: ast.Module) -> dict[str, list[Binding]]:
    """The names a module's code binds at its top level (``global`` ones included)."""
    return Scopes(tree).module.bindings


class Names:
    """Where each name of an answer comes from, given the bindings of the drill's setup."""

    def __init__(self, scopes: Scopes, setup: dict[str, list[Binding]]) -> None:
        self.scopes = scopes
        self.setup = setup

    def ref(self, node: ast.Name) -> Ref:
        """Where the value of ``node`` (read, written or deleted) comes from."""
        scope = self.scopes.of.get(id(node), self.scopes.module)
        return self.lookup(node.id, scope)

    def lookup(self, name: str, scope: Scope) -> Ref:
        """Where ``name``, read in ``scope``, comes from."""
        if scope.kind != "module" and name not in scope.globals_ and name in scope.bindings:
            bs = tuple(scope.bindings[name])
            return Ref("local", name, bs, _import_target(bs))
        if name in scope.globals_:
            return self._module(name)
        p = scope.parent
        while p is not None and p.kind != "module":
            if p.kind != "class" and name in p.bindings and name not in p.globals_:
                bs = tuple(p.bindings[name])
                return Ref("local", name, bs, _import_target(bs))
            if name in p.globals_:
                break
            p = p.parent
        return self._module(name)

    def _module(self, name: str) -> Ref:
        mod = self.scopes.module
        if name in mod.bindings:
            bs = tuple(mod.bindings[name])
            return Ref("answer", name, bs, _import_target(bs))
        if name in self.setup:
            bs = tuple(self.setup[name])
            return Ref("setup", name, bs, _import_target(bs))
        if name in GIVEN:
            return Ref("given", name, (), GIVEN[name])
        if mod.star:
            return Ref("star", name, (), f"{mod.star[-1]}.{name}")
        if name in BUILTIN_NAMES:
            return Ref("builtin", name)
        return Ref("unbound", name)


def _import_target(bindings: tuple[Binding, ...]) -> str | None:
    """The dotted name a module-level name is bound to when every binding of it is one import
    of the same target (None otherwise: a value, a function, a class)."""
    targets = {b.target for b in bindings if b.how == "import"}
    if len(targets) == 1 and all(b.how == "import" for b in bindings):
        return targets.pop()
    return None
