"""What `tutor pack check` proves about an order drill checked by running (torch-free): its own
right orders (``lines`` and each ``accept``) run and pass its check on every seed tried, and the
check is not passed by ``lines`` reversed (a check that passes every order checks nothing).

``runs(drill, seeds)`` lists the orders to run, each with the probe's arguments; the sandbox
stage runs them in one call (``tutor.probes.grade_order:run_orders``) and ``problems`` reads the
outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.content.models import OrderDrill
from tutor.content.order_rules import norm
from tutor.grading.order import run_kwargs
from tutor.grading.variants import draw_params

#: (path inside the drill, message, severity, line inside the code or None)
Found = tuple[tuple[str | int, ...], str, str, int | None]


@dataclass(frozen=True)
class Run:
    """One order to run: where it is written, whether it must pass, the probe's arguments."""

    path: tuple[str | int, ...]
    name: str
    seed: int
    where: str
    must_pass: bool
    kwargs: dict[str, Any]


def _numbers(drill: OrderDrill, order: list[str]) -> list[int]:
    """The numbers (from 1) of an ``accept`` order's lines (the schema made it a permutation)."""
    texts = [norm(line) for line in drill.lines]
    used: set[int] = set()
    out = []
    for line in order:
        index = next(i for i, t in enumerate(texts) if t == norm(line) and i not in used)
        used.add(index)
        out.append(index + 1)
    return out


def _where(drill: OrderDrill, seed: int) -> str:
    params = draw_params(drill.params, seed)
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"seed {seed}" + (f" ({shown})" if shown else "")


def runs(drill: OrderDrill, seeds: list[int]) -> list[Run]:
    """Each right order on each seed (a variant whose code renders the same is run once),
    then ``lines`` reversed on the first seed."""
    n = len(drill.lines)
    orders: list[tuple[tuple[str | int, ...], str, list[int]]] = [(("lines",), "`lines`",
                                                                   list(range(1, n + 1)))]  # fmt: skip
    for j, other in enumerate(drill.accept):
        orders.append((("accept", j), f"`accept[{j}]`", _numbers(drill, other)))
    out: list[Run] = []
    seen: set[str] = set()
    for seed in seeds:
        params = draw_params(drill.params, seed)
        for path, name, numbers in orders:
            kwargs = run_kwargs(drill, params, numbers)
            key = repr(sorted(kwargs.items()))
            if key not in seen:
                seen.add(key)
                out.append(Run(path, name, seed, _where(drill, seed), True, kwargs))
    params = draw_params(drill.params, seeds[0])
    backwards = run_kwargs(drill, params, list(range(n, 0, -1)))
    out.append(
        Run(("run",), "`lines` reversed", seeds[0], _where(drill, seeds[0]), False, backwards)
    )
    return out


def problems(drill: OrderDrill, tried: list[Run], outcomes: list[dict[str, Any]]) -> list[Found]:
    """The problems the outcomes of ``tried`` show (the first of each right order only)."""
    found: list[Found] = []
    for run, outcome in zip(tried, outcomes, strict=False):
        kind = outcome["outcome"]
        if kind == "authoring":
            err, field = outcome["error"], outcome["field"]
            path: tuple[str | int, ...] = {"setup": ("setup",), "check": ("run", "assert")}.get(
                field, ("lines", int(err.get("number") or 1) - 1)
            )
            line = None if field == "lines" else err.get("line")
            found.append((path, f"{err['type']}: {err['message']} on {run.where} (the drill's "
                          "own code is broken)", "error", line))  # fmt: skip
            return found
        if not run.must_pass:
            if kind == "passed":
                found.append((run.path, f"{run.name} passes the check too, on {run.where}: a "
                              "check that any order passes does not check the order",
                              "warning", None))  # fmt: skip
            continue
        if kind == "raised":
            err = outcome["error"]
            text = norm(run.kwargs["lines"][outcome["line"] - 1])
            path = ("lines", outcome["line"] - 1) if run.path == ("lines",) else run.path
            found.append((path, f"run in the order of {run.name} on {run.where}, line "
                          f"{outcome['line']} (`{text}`) raises {err['type']}: {err['message']}; "
                          "a right order must run", "error", None))  # fmt: skip
        elif kind == "failed":
            message = outcome.get("message") or "(no message)"
            found.append((run.path, f"this order fails the drill's own check on {run.where}: "
                          f"{message}; a right order must pass it", "error", None))  # fmt: skip
    return found
