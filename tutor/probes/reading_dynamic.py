"""What no answer may reach (T3 of the reading): code or names built at run time, the
interpreter's insides, and the ways to turn bytes or strings into running code.

A grade rests on what the reading can see, so every answer is refused: ``eval``, ``exec``,
``compile``, ``__import__``, ``globals``/``vars``/``locals``, ``breakpoint``, ``__builtins__``;
``getattr``/``setattr``/``delattr``/``hasattr`` other than called directly with a plain literal
name; ``type`` other than called with one argument; dunder names and attributes other than
``__init__``/``__name__``; frame, traceback, generator and coroutine attributes (``f_globals``,
``gi_frame``, ...); ``__torch_function__``/``__torch_dispatch__`` anywhere; the modules of
``reading_lists.MODULES_REFUSED`` and what reaches them through torch's attributes
(``torch.sys``); ``torch.load`` other than called with ``weights_only`` left at its default or
True; ``numpy.load`` with ``allow_pickle``; ``operator.attrgetter``/``methodcaller`` other than
with literal names; changes to ``os.environ``; torch.distributed's object collectives; the
members of ``torch.library`` that patch torch's own ops; torch's global module and optimizer
hooks; ``torch.utils.benchmark.Timer`` with code that is not a literal string (the literal is
read like the answer). Imports: the standard library, torch, numpy, torch_xla and what the
drill's setup imports; nothing else (not even a file the answer wrote).
"""

from __future__ import annotations

import ast
import sys

from tutor.probes import reading_lists as lists
from tutor.probes.reading_core import Reading, dunder, literal_name, written

_FRAME = "frames and tracebacks hold every namespace, the check's included"
_MRO = "a class's bases are classes your code did not name, shared with the check"
_HOOKS = "it intercepts every torch call, the check's included"
_DUNDER = "dunder attributes reach the interpreter's insides (a function's globals, a class's dict)"
_DIRECT = ("may only be called directly, with the attribute's name written as a plain string "
           "(not a dunder or frame attribute)")  # fmt: skip
_TYPE = "`type` may only be called with one argument (with three it builds a class at run time)"
_ENVIRON = "environment variables change how torch behaves in the check too"
_GLOBAL_HOOK = "it changes every module or optimizer of the process, the check's included"
_IMPORT = "only Python's standard library, torch, numpy and torch_xla may be imported"


def _refused_module(dotted: str) -> str | None:
    """Why a canonical dotted name is refused to every answer (None: it is not)."""
    for module, why in lists.MODULES_REFUSED.items():
        if dotted == module or dotted.startswith(module + "."):
            return why
    parts = dotted.split(".")
    if parts[0] != "torch":
        return None
    if parts[-1] in lists.OBJECT_COLLECTIVES and dotted.startswith("torch.distributed"):
        return lists.PICKLES
    if dotted.startswith("torch.library.") and parts[2] not in lists.LIBRARY_OK:
        return "it patches torch's own operators, the check's included"
    if "py_impl" in parts or "py_kernels" in parts:
        return "it patches torch's own operators, the check's included"
    if parts[-1].startswith(("register_module_", "register_optimizer_step_")):
        return _GLOBAL_HOOK
    return None


def check_dynamic(r: Reading) -> None:
    """Record every T3 refusal of the answer in ``r`` (and of its imports)."""
    for node in r.nodes:
        if isinstance(node, ast.Name):
            _name(r, node)
        elif isinstance(node, ast.Attribute):
            if dunder(node.attr):
                r.refuse(node, written(node), _DUNDER, "dynamic", node.attr)
            elif node.attr in lists.FRAME_ATTRS:
                r.refuse(node, written(node), _FRAME, "dynamic", node.attr)
            elif node.attr == "mro":
                r.refuse(node, written(node), _MRO, "dynamic", node.attr)
        elif isinstance(node, ast.Call) and r.builtin_call(node, *lists.NAME_FUNCS):
            _name_call(r, node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name in lists.TORCH_HOOKS:
                r.refuse(node, node.name, _HOOKS, "dynamic", node.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for hook in lists.TORCH_HOOKS:
                if hook in node.value:
                    r.refuse(node, hook, _HOOKS, "dynamic", hook)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            _import(r, node)
        if isinstance(node, ast.Name | ast.Attribute | ast.Call) and r.chain_top(node):
            dotted = r.path(node)
            if dotted is not None:
                _mention(r, node, dotted)


def _name(r: Reading, node: ast.Name) -> None:
    ref = r.ref(node)
    if node.id == "__builtins__" or (node.id in lists.BUILTINS_REFUSED and ref.where == "builtin"):
        r.refuse(node, node.id, lists.BUILTINS_REFUSED[node.id], "dynamic", node.id)
    elif dunder(node.id) and isinstance(node.ctx, ast.Load):
        r.refuse(node, node.id, _DUNDER, "dynamic", node.id)
    elif ref.where == "builtin" and node.id in (*lists.NAME_FUNCS, "type"):
        parent = r.parent.get(id(node))
        if not (isinstance(parent, ast.Call) and parent.func is node):
            r.refuse(node, node.id, _TYPE if node.id == "type" else _DIRECT, "dynamic", node.id)
        elif node.id == "type" and not (len(parent.args) == 1 and not parent.keywords):
            r.refuse(parent, written(parent), _TYPE, "dynamic", "type")


def _bad_attribute(name: str | None) -> bool:
    return name is None or any(dunder(p) or p in lists.FRAME_ATTRS for p in name.split("."))


def _name_call(r: Reading, node: ast.Call) -> None:
    """``getattr(x, "name")`` & co.: a plain literal name, no splats."""
    args = node.args
    splat = any(isinstance(a, ast.Starred) for a in args) or any(
        k.arg is None for k in node.keywords
    )
    name = literal_name(args[1]) if len(args) > 1 else None
    if splat or _bad_attribute(name) or (name is not None and "." in name):
        called = node.func.id if isinstance(node.func, ast.Name) else written(node.func)
        r.refuse(node, written(node), lists.COMPUTED, "dynamic", called)


def _import(r: Reading, node: ast.Import | ast.ImportFrom) -> None:
    if isinstance(node, ast.ImportFrom) and node.level:
        r.refuse(node, written(node), "relative imports name no module the reading can see",
                 "dynamic", "import")  # fmt: skip
        return
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif node.module:
        names = [node.module] + [f"{node.module}.{a.name}" for a in node.names if a.name != "*"]
    setup_tops = {b.target.split(".")[0] for bs in r.setup_bindings.values() for b in bs
                  if b.how == "import" and b.target}  # fmt: skip
    for name in names:
        canonical = r.find(name).name
        why = _refused_module(canonical) or _refused_module(name)
        if why is None and any(dunder(p) for p in name.split(".")):
            why = lists.INSIDES
        top = name.split(".")[0]
        if why is None and not (top in sys.stdlib_module_names or top in lists.THIRD_PARTY_OK or top in setup_tops):  # fmt: skip
            why = f"{_IMPORT} (`{top}` is none of them)"
        if why is not None:
            r.refuse(node, written(node), why, "dynamic", name)
            return


def _mention(r: Reading, node: ast.AST, dotted: str) -> None:
    """A dotted name the answer writes (a chain through its imports or ``torch``/``nn``/``F``)."""
    head = node
    while isinstance(head, ast.Attribute):
        head = head.value
    if isinstance(head, ast.Call):
        head = head.args[0] if head.args else head
    if isinstance(head, ast.Name) and r.ref(head).where == "setup":
        return  # the setup chose to give it
    canonical = r.find(dotted).name
    why = _refused_module(canonical) or _refused_module(dotted)
    if why is not None:
        r.refuse(node, written(node), why, "dynamic", canonical)
        return
    parent = r.parent.get(id(node))
    call = parent if isinstance(parent, ast.Call) and parent.func is node else None
    if canonical in ("torch.load", "numpy.load"):
        _load(r, node, call, canonical)
    elif canonical in ("operator.attrgetter", "operator.methodcaller", "_operator.attrgetter",
                       "_operator.methodcaller"):  # fmt: skip
        names = None if call is None else (call.args if "attr" in canonical else call.args[:1])
        if (
            call is None
            or not names
            or any(_bad_attribute(literal_name(a)) for a in names)
            or call.keywords
        ):
            r.refuse(node, written(parent or node), lists.COMPUTED, "dynamic", canonical)
    elif canonical in ("os.putenv", "os.unsetenv", "os.environb") or (
        canonical.startswith("os.environ") and not _reads_environ(r, node, canonical)
    ):
        r.refuse(node, written(parent or node), _ENVIRON, "dynamic", canonical)
    elif canonical.startswith("torch.utils.benchmark") and canonical.endswith(".Timer"):
        _timer(r, node, call)


def _load(r: Reading, node: ast.AST, call: ast.Call | None, canonical: str) -> None:
    key, safe = ("weights_only", True) if canonical == "torch.load" else ("allow_pickle", False)
    bad = call is None or any(isinstance(a, ast.Starred) for a in call.args)
    if call is not None:
        for k in call.keywords:
            value = k.value.value if isinstance(k.value, ast.Constant) else None
            bad |= k.arg is None or k.arg == "pickle_module" or (k.arg == key and value is not safe)
        bad |= canonical == "torch.load" and len(call.args) > 2
    if bad:
        why = (f"`{canonical}` may only be called directly, with `{key}` left at its default "
               f"({safe}): otherwise {lists.PICKLES}")  # fmt: skip
        r.refuse(node, written(call or node), why, "dynamic", canonical)


def _reads_environ(r: Reading, node: ast.AST, canonical: str) -> bool:
    """Whether a mention of ``os.environ`` only reads it."""
    if canonical in ("os.environ.get", "os.environ.copy", "os.environ.keys", "os.environ.items",
                     "os.environ.values"):  # fmt: skip
        return True
    if canonical != "os.environ":
        return False
    parent = r.parent.get(id(node))
    if isinstance(parent, ast.Subscript):
        return isinstance(parent.ctx, ast.Load)
    return isinstance(parent, ast.Compare)


def _timer(r: Reading, node: ast.AST, call: ast.Call | None) -> None:
    """``Timer(stmt, setup, ...)`` runs its strings as code: they must be literals, and are read."""
    if call is None:
        r.refuse(
            node, written(node), f"it runs code from strings: {lists.BUILT}", "dynamic", "Timer"
        )
        return
    codes = [a for a in call.args[:2]]
    codes += [k.value for k in call.keywords if k.arg in ("stmt", "setup", "global_setup")]
    if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):  # fmt: skip
        codes.append(ast.Name("?"))
    for code in codes:
        text = literal_name(code)
        if text is None:
            r.refuse(code, written(code), f"the code a Timer runs must be a literal string: {lists.STRINGS}",
                     "dynamic", "Timer")  # fmt: skip
            continue
        try:
            inner = Reading(ast.parse(text), None, r.resolver)
        except (SyntaxError, ValueError, RecursionError):
            continue  # the Timer raises: nothing runs
        check_dynamic(inner)
        line = getattr(code, "lineno", 0)
        for refusal in inner.refusals:
            r.refuse(line, refusal.written, refusal.why, "dynamic", refusal.name)
