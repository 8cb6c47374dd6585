"""Runtime side of an order drill checked by running: ``setup``, then the drill's own lines in
the learner's order, then the drill's ``assert`` over what torch did.

Only the drill's code runs here (trusted): the learner's answer reaches this process as the
order of the line numbers, never as text. ``run_order(setup, lines, order, check)`` returns one
of

- ``{"outcome": "passed"}``;
- ``{"outcome": "failed", "message": str}``: the ``assert`` raised an AssertionError (its
  message says what this order did, in the drill's words);
- ``{"outcome": "raised", "line": n, "position": p, "error": {...}}``: line ``n`` (from 1, in
  ``lines``), run at position ``p`` of the learner's order, raised;
- ``{"outcome": "authoring", "field": "setup" | "lines" | "check", "error": {...}}``: the
  drill itself is broken (``setup`` raised, a line is no Python, the ``assert`` raised
  something other than an AssertionError). ``error["line"]`` is the line inside that code;
  for ``lines``, ``number`` names the line.

While a line runs, ``line`` in the namespace holds its number (setup's instruments read it to
say which line did what); the ``assert`` reads ``order`` (the numbers in the learner's order)
and ``lines`` (the texts, in the drill's order).
"""

from __future__ import annotations

from typing import Any

from tutor.probes.grade_run import describe_error, fresh_namespace, run_code


def _authoring(field: str, exc: BaseException, filename: str) -> dict[str, Any]:
    return {"outcome": "authoring", "field": field, "error": describe_error(exc, filename)}


def run_order(setup: str, lines: list[str], order: list[int], check: str) -> dict[str, Any]:
    """Run ``setup``, the ``lines`` numbered in ``order``, then ``check``; the outcome as data."""
    if sorted(order) != list(range(1, len(lines) + 1)):
        raise ValueError("order must name every line once, by its number from 1")
    for number, text in enumerate(lines, 1):
        try:
            compile(text, f"<line {number}>", "exec")
        except SyntaxError as exc:
            out = _authoring("lines", exc, f"<line {number}>")
            out["error"]["number"] = number
            return out
    ns = fresh_namespace()
    try:
        run_code(setup, ns, "<setup>")
    except Exception as exc:
        return _authoring("setup", exc, "<setup>")
    for position, number in enumerate(order, 1):
        ns["line"] = number
        try:
            run_code(lines[number - 1], ns, f"<line {number}>")
        except Exception as exc:
            error = describe_error(exc, f"<line {number}>")
            return {"outcome": "raised", "line": number, "position": position, "error": error}
    ns.update(line=None, order=list(order), lines=list(lines))
    try:
        run_code(check, ns, "<check>")
    except AssertionError as exc:
        return {"outcome": "failed", "message": str(exc)[:2000]}
    except Exception as exc:
        return _authoring("check", exc, "<check>")
    return {"outcome": "passed"}


def run_orders(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``run_order`` for several orders (or variants) in one call (``tutor pack check``); each
    run in a fresh namespace."""
    return [run_order(r["setup"], r["lines"], r["order"], r["check"]) for r in runs]
