"""Runtime side of ``tutor pack check``'s attack pass: forged answers made from a drill's own
code (the reference and setup are the drill's, so this process may run them).

``forgeries(...)`` returns answer texts a cheating learner could write without solving the
drill; pack check grades each like any answer and reports a drill that one of them passes:

- ``constants``: the reference's results on one seed, written out as literals (a function that
  returns the first trial's output; for an ``assert`` check, every data name the assert reads
  assigned the value the reference gave it);
- ``echo``: a function that hands its first input back;
- ``claim``: an object whose class claims to be ``torch.Tensor`` where a result belongs;
- ``rebind``: the reference, then every name setup binds rebound to itself (the answer may
  not rebind what the check relies on).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import math
from typing import Any

import torch

from tutor.probes.grade_inputs import fresh_copies, make_inputs
from tutor.probes.grade_run import fresh_namespace, manual_seed, run_code

MAX_ELEMENTS = 20_000
_CLAIM = "class _Posing:\n    pass\n_Posing.__module__ = 'torch'\n_Posing.__qualname__ = 'Tensor'\n"


class NoLiteral(ValueError):
    """A value that cannot be written as a Python literal."""


def _number(x: float) -> str:
    if math.isnan(x):
        return "float('nan')"
    if math.isinf(x):
        return "float('inf')" if x > 0 else "float('-inf')"
    return repr(x)


def literal(value: Any, depth: int = 0) -> str:
    """``value`` as Python source that rebuilds it (tensors as ``torch.tensor(...)``)."""
    if depth > 16:
        raise NoLiteral("nested too deeply")
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return repr(value)
    if kind is float:
        return _number(value)
    if kind is complex:
        return f"complex({_number(value.real)}, {_number(value.imag)})"
    if kind is torch.dtype:
        return str(value)
    if kind is torch.device:
        return f"torch.device({str(value)!r})"
    if kind is torch.Size:
        return f"torch.Size({list(value)!r})"
    if kind in (torch.Tensor, torch.nn.Parameter):
        return _tensor(value)
    if kind in (list, tuple):
        items = [literal(v, depth + 1) for v in value]
        if kind is tuple:
            return "(" + "".join(f"{i}, " for i in items) + ")"
        return "[" + ", ".join(items) + "]"
    if kind is dict:
        pairs = [f"{literal(k, depth + 1)}: {literal(v, depth + 1)}" for k, v in value.items()]
        return "{" + ", ".join(pairs) + "}"
    raise NoLiteral(f"a {kind.__name__}")


def _tensor(t: torch.Tensor) -> str:
    if t.layout != torch.strided or t.device.type != "cpu" or t.numel() > MAX_ELEMENTS:
        raise NoLiteral("a tensor that cannot be written out")
    values = t.detach().tolist()
    text = f"torch.tensor({_values(values)}, dtype={t.dtype})"
    if tuple(t.shape) != tuple(torch.tensor(values).shape) or t.numel() == 0:
        text = f"{text}.reshape({list(t.shape)!r})"
    if t.requires_grad:
        text += ".requires_grad_()"
    return text


def _values(values: Any) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_values(v) for v in values) + "]"
    if isinstance(values, float):
        return _number(values)
    return repr(values)


def _top_names(code: str) -> list[str]:
    """The names ``code`` binds at its top level, in order."""
    names: list[str] = []
    for node in ast.parse(code or "").body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found = [node.name]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found = [(a.asname or a.name).split(".")[0] for a in node.names]
        else:
            found = [
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            ]
        names += [n for n in found if n not in names]
    return names


def _read(code: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name)}


def _call_forgeries(ns: dict[str, Any], call: str, trials: list[dict[str, Any]]) -> dict[str, str]:
    fn = ns[call]
    spec = trials[0]
    inputs = make_inputs(spec)
    manual_seed(int(spec["seed"]))
    out: dict[str, str] = {}
    with contextlib.suppress(Exception):  # a result that cannot be written out
        value = literal(fn(*fresh_copies(inputs)))
        out["constants"] = f"def {call}(*args, **kwargs):\n    return {value}\n"
    out["echo"] = f"def {call}(*args, **kwargs):\n    return args[0] if args else None\n"
    out["claim"] = f"{_CLAIM}def {call}(*args, **kwargs):\n    return _Posing()\n"
    return out


def _assert_forgeries(ns: dict[str, Any], setup: str, assert_code: str) -> dict[str, str]:
    given = set(_top_names(setup)) | {"torch", "nn", "F"} | set(dir(builtins))
    wanted = sorted(n for n in _read(assert_code) if n in ns and n not in given)
    data: list[str] = []
    posing: list[str] = []
    for name in wanted:
        try:
            data.append(f"{name} = {literal(ns[name])}")
            posing.append(f"{name} = _Posing()")
        except NoLiteral:
            return {}  # the assert reads an object the reference built: no literal forgery
    if not data:
        return {}
    return {"constants": "\n".join(data) + "\n", "claim": _CLAIM + "\n".join(posing) + "\n"}


def forgeries(
    *,
    setup: str,
    reference: str,
    call: str | None,
    trials: list[dict[str, Any]],
    assert_code: str | None,
    seed: int,
) -> dict[str, str]:
    """The forged answers of one drill, made from its reference run on ``seed`` (``{}`` where
    none can be made)."""
    ns = fresh_namespace()
    manual_seed(seed)
    run_code(setup, ns, "<setup>")
    run_code(reference, ns, "<reference>")
    out: dict[str, str] = {}
    if call and trials and callable(ns.get(call)):
        out.update(_call_forgeries(ns, call, trials))
    elif assert_code:
        out.update(_assert_forgeries(ns, setup, assert_code))
    names = _top_names(setup)
    if names:
        out["rebind"] = reference.rstrip("\n") + "\n" + "".join(f"{n} = {n}\n" for n in names)
    return out
