"""Runtime side of the guard viewer: run the learner's code (it defines ``f`` and ``calls``),
ask ``torch._dynamo.explain`` about the first call, then call ``torch.compile(f)`` on every call
in order while Dynamo's own ``guards`` and ``recompiles`` logs are captured."""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections.abc import Callable
from typing import Any

import torch
import torch._dynamo

from tutor.probes.data_guards import BACKENDS, GraphBreak, GuardReport, Recompile

FILENAME = "<guards code>"
#: a leaf of Dynamo's guard tree: "| | +- TENSOR_MATCH: check_tensor(...)  # where"
_GUARD = re.compile(r"\+- ([A-Z_]+): (.*?)(?:\s+#.*)?$")
#: guard kinds that speak of the user's function (the rest is ambient state)
_SHOWN = ("TENSOR_MATCH", "EQUALS_MATCH", "TYPE_MATCH", "ID_MATCH", "CONSTANT_MATCH", "LENGTH_CHECK",
          "DICT_LENGTH", "SHAPE_ENV", "GRAD_MODE", "DEFAULT_DEVICE", "GLOBAL_STATE")  # fmt: skip


class GuardsInputError(ValueError):
    """The code cannot be compiled as asked; the message says why in plain words."""


class _Keep(logging.Handler):
    """Keeps the messages Dynamo logs while the lab watches."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _load(code: str) -> tuple[Any, list[tuple[Any, ...]]]:
    """``f`` and ``calls`` from the learner's code, checked."""
    torch.manual_seed(0)
    ns: dict[str, Any] = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional}
    try:
        exec(compile(code, FILENAME, "exec"), ns)
    except SyntaxError as exc:
        raise GuardsInputError(f"syntax error on line {exc.lineno}: {exc.msg}") from None
    f, calls = ns.get("f"), ns.get("calls")
    if not callable(f):
        raise GuardsInputError("define `f`, the function to compile, e.g. def f(x): return x.sin()")
    if not isinstance(calls, (list, tuple)) or not calls:
        raise GuardsInputError(
            "define `calls`, a list of argument tuples, e.g. calls = [(torch.randn(4),)]"
        )
    return f, [c if isinstance(c, tuple) else (c,) for c in calls]


def op_name(node: Any) -> str:
    """A graph node's op as a plain name: ``sin`` for ``x.sin()``, ``mul`` for ``*``."""
    target = node.target
    return target if isinstance(target, str) else getattr(target, "__name__", str(target))


def readable_guards(log: str) -> list[str]:
    """The leaves of the first guard tree in Dynamo's ``guards`` log, one line each, without
    the source comments and the dispatch-key noise."""
    out: list[str] = []
    for line in log.split("TREE_GUARD_MANAGER:", 1)[-1].splitlines():
        match = _GUARD.search(line)
        if not match or match.group(1) not in _SHOWN:
            continue
        text = re.sub(r"DispatchKeySet\([^)]*\), ", "", match.group(2))
        text = re.sub(r"G\['__builtins_dict___\d+'\]", "builtins", text)
        text = re.sub(
            r"___check_obj_id\((.*?), \d+\)", r"\1 is the object seen at compile time", text
        )
        text = re.sub(
            r"___check_type_id\((.*?), \d+\)", r"type(\1) is the type seen at compile time", text
        )
        if match.group(1) == "GLOBAL_STATE":
            text = "grad mode, autocast, default dtype, deterministic flags as at compile time"
        out.append(f"{match.group(1)}: {text}")
    return out


def _explain(f: Any, args: tuple[Any, ...]) -> tuple[int, list[GraphBreak], list[list[str]]]:
    """Graph count, breaks and per-graph ops of the first call, as ``explain`` counts them."""
    report = torch._dynamo.explain(f)(*args)
    breaks = []
    for brk in report.break_reasons:
        lines = [s.lineno for s in brk.user_stack if s.filename == FILENAME]
        reason = (brk.reason.strip().splitlines() or [""])[0]
        breaks.append(GraphBreak(reason=reason, line=lines[-1] if lines else None))
    ops = [
        [
            op_name(n)
            for n in gm.graph.nodes
            if n.op in ("call_function", "call_method", "call_module")
        ]
        for gm in report.graphs
    ]
    return report.graph_count, breaks, ops


def guards(code: str, backend: str = "eager") -> GuardReport:
    """Compile the ``f`` that ``code`` defines and call it on each of its ``calls``."""
    if backend not in BACKENDS:
        raise GuardsInputError(f"unknown backend {backend!r}: one of {', '.join(BACKENDS)}")
    f, calls = _load(code)
    torch._dynamo.reset()
    try:
        graphs, breaks, ops = _explain(f, calls[0])
    except Exception as exc:
        raise GuardsInputError(f"the first call failed: {type(exc).__name__}: {exc}") from None
    torch._dynamo.reset()
    compiles = 0

    def counting(gm: Any, example_inputs: Any) -> Any:
        nonlocal compiles
        compiles += 1
        if backend == "eager":
            return gm.forward
        return torch._dynamo.lookup_backend(backend)(gm, example_inputs)

    keep, logger = _Keep(), logging.getLogger("torch._dynamo")
    with contextlib.redirect_stderr(io.StringIO()):  # torch's own log handler writes here
        torch._logging.set_logs(guards=True, recompiles=True)  # type: ignore[attr-defined]
    logger.addHandler(keep)
    recompiles: list[Recompile] = []
    try:
        compiled: Callable[..., object] = torch.compile(f, backend=counting)
        for i, args in enumerate(calls):
            seen = len(keep.messages)
            try:
                compiled(*args)
            except Exception as exc:
                raise GuardsInputError(f"call {i} failed: {type(exc).__name__}: {exc}") from None
            for message in keep.messages[seen:]:
                if message.startswith("Recompiling function"):
                    recompiles.append(Recompile(call=i, reason=_first_failure(message)))
    finally:
        logger.removeHandler(keep)
        torch._logging.set_logs()  # type: ignore[attr-defined]
    guard_log = next((m for m in keep.messages if "TREE_GUARD_MANAGER" in m), "")
    return GuardReport(
        graphs=graphs, graph_breaks=breaks, guards=readable_guards(guard_log),
        recompiles=recompiles, ops=ops, compiles=compiles, backend=backend,
    )  # fmt: skip


def _first_failure(message: str) -> str:
    """The first failed guard of a ``Recompiling function ...`` message, e.g. ``k == 2``."""
    for line in message.splitlines()[1:]:
        line = line.strip()
        if line.startswith("- ") and "User stack" not in line and ":" in line:
            text = line[2:].split("#")[0].strip()
            return re.sub(r"^\d+/\d+: ", "", text)
    return message.splitlines()[0]
