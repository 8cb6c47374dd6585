"""Runtime side of a predict drill: run ``setup``, evaluate ``ask``, return the truth as data.

``predict(setup, ask, wrong)`` returns one of

- ``{"outcome": "value", "value": <tagged value>, "context": {...} | None, "wrong": [...]}``
  where the value is what torch returned or, for a "predict the error" drill, the exception it
  raised, and ``wrong`` holds, for each expression of the drill's likely mistakes (evaluated
  after ``ask``, in the same namespace), ``{"outcome": "value", "value": <tagged value>}`` or
  ``{"outcome": "authoring", "error": {...}}`` when that expression itself is broken;
- ``{"outcome": "authoring", "field": "setup" | "ask", "error": {"type", "message", "line"}}``
  when the drill itself is broken (any exception in ``setup``; a NameError, SyntaxError or
  ImportError in ``ask``).

The ``context`` describes the tensor an ``x.stride()``, ``x.size()`` or ``x.shape`` ask was
taken of (its shape, stride and contiguity), so the judge can recognise common wrong answers
such as row-major strides for a permuted tensor.
"""

from __future__ import annotations

import ast
from typing import Any

import torch

from tutor.probes.grade_run import AUTHORING_ERRORS, describe_error, fresh_namespace, run_code
from tutor.probes.values import encode, encode_exception

_META = {"stride", "size", "shape"}


def _split_meta(ask: str) -> tuple[ast.expr, str, list[ast.Constant]] | None:
    """For ``<base>.stride(...)``/``.size(...)``/``.shape`` return (base, attribute, args)."""
    try:
        node = ast.parse(ask.strip(), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Attribute) and node.attr == "shape":
        return node.value, "shape", []
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _META
        and not node.keywords
        and all(isinstance(a, ast.Constant) for a in node.args)
    ):
        return (
            node.func.value,
            node.func.attr,
            [a for a in node.args if isinstance(a, ast.Constant)],
        )
    return None


def _context(base: Any) -> dict[str, Any] | None:
    if not isinstance(base, torch.Tensor) or base.layout != torch.strided:
        return None
    return {
        "shape": list(base.shape),
        "stride": list(base.stride()),
        "contiguous": base.is_contiguous(),
    }


def _evaluate(ask: str, ns: dict[str, Any]) -> tuple[Any, dict[str, Any] | None]:
    meta = _split_meta(ask)
    if meta is None:
        return eval(compile(ask.strip(), "<ask>", "eval"), ns), None
    base_node, attr, args = meta
    base = eval(compile(ast.Expression(base_node), "<ask>", "eval"), ns)
    member = getattr(base, attr)
    value = member if attr == "shape" else member(*[a.value for a in args])
    return value, _context(base)


def _mistake(ask: str, ns: dict[str, Any]) -> dict[str, Any]:
    """The value of one likely mistake's expression (or the exception it raises), as data."""
    try:
        code = compile(ask.strip(), "<wrong>", "eval")
        value = eval(code, ns)
    except AUTHORING_ERRORS as exc:
        return {"outcome": "authoring", "error": describe_error(exc, "<wrong>")}
    except Exception as exc:
        return {"outcome": "value", "value": encode_exception(exc)}
    return {"outcome": "value", "value": encode(value)}


def predict(setup: str, ask: str, wrong: list[str] | None = None) -> dict[str, Any]:
    """Run ``setup`` then ``ask`` in a fresh namespace; the truth (or authoring error) as data,
    with the value of each expression in ``wrong`` (the drill's likely mistakes), computed
    after the truth so that they cannot change it."""
    ns = fresh_namespace()
    try:
        run_code(setup, ns, "<setup>")
    except Exception as exc:
        return {"outcome": "authoring", "field": "setup", "error": describe_error(exc, "<setup>")}
    try:
        compile(ask.strip(), "<ask>", "eval")
    except SyntaxError as exc:
        return {"outcome": "authoring", "field": "ask", "error": describe_error(exc, "<ask>")}
    try:
        value, context = _evaluate(ask, ns)
    except AUTHORING_ERRORS as exc:
        return {"outcome": "authoring", "field": "ask", "error": describe_error(exc, "<ask>")}
    except Exception as exc:
        value, context = encode_exception(exc), None
    else:
        value = encode(value)
    mistakes = [_mistake(w, ns) for w in wrong or []]
    return {"outcome": "value", "value": value, "context": context, "wrong": mistakes}


def predict_seeds(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``predict`` for several rendered variants in one call (each case is ``predict``'s
    keyword arguments, as the grading engine plans them; ``tutor pack check``).

    Stops after the first authoring error, which is then the last item.
    """
    out = []
    for case in cases:
        out.append(predict(**case))
        if out[-1]["outcome"] == "authoring":
            break
    return out
