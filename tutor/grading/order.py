"""Order drills (torch-free): read the learner's order, then decide what makes it right.

An answer is the drill's lines in the learner's order, one per line (blank lines ignored; blank
space inside a line does not matter). It is right when it is ``lines`` or one of ``accept``.
Otherwise:

- a drill with ``constraints`` refuses an order that breaks one, naming one broken constraint
  (its ``why``, or "`b` comes before `a` in your order"), never the whole order;
- a drill with ``run`` needs the order run: ``decide`` then returns the line numbers to run
  in the sandbox (``tutor.probes.grade_order``), and ``judge_run`` reads what came back;
- a drill with constraints and no ``run`` accepts every order that keeps them;
- a drill with neither names the first line out of place, against the right order the answer
  follows longest, and, for a line of code, the name it uses that a later line makes.
"""

from __future__ import annotations

from tutor.content.models import OrderDrill, Params
from tutor.content.order_rules import norm, pairs
from tutor.grading.grade import Judgement
from tutor.grading.order_lines import made_later, quote_line
from tutor.grading.variants import render, render_prose
from tutor.probes.data_grading import OrderAuthoring, OrderData, OrderFailed, OrderRaised

TARGET = "tutor.probes.grade_order:run_order"


def read_order(drill: OrderDrill, params: Params, answer: str) -> list[int] | Judgement:
    """The indices (from 0) into ``lines`` of the answer's lines, in its order; an ``invalid``
    judgement when it is not exactly the drill's lines. Lines written alike are matched in the
    order they come."""
    want = [render(line, params) for line in drill.lines]
    expected = "\n".join(want)
    got = [line for line in answer.splitlines() if line.strip()]
    wn, gn = [norm(x) for x in want], [norm(x) for x in got]
    unknown = [g for g, n in zip(got, gn, strict=True) if n not in wn]
    if unknown:
        return Judgement(
            "invalid", f"{quote_line(unknown[0])} is not one of the drill's lines.", expected
        )
    if sorted(gn) != sorted(wn):
        missing = [w for w, n in zip(want, wn, strict=True) if gn.count(n) < wn.count(n)]
        extra = [g for g, n in zip(got, gn, strict=True) if gn.count(n) > wn.count(n)]
        if missing:
            return Judgement("invalid", f"The line {quote_line(missing[0])} is missing.", expected)
        return Judgement("invalid", f"The line {quote_line(extra[0])} appears too often.", expected)
    used: set[int] = set()
    order = []
    for text in gn:
        index = next(i for i, w in enumerate(wn) if w == text and i not in used)
        used.add(index)
        order.append(index)
    return order


def _broken(drill: OrderDrill, params: Params, order: list[int]) -> str | None:
    """The feedback on one constraint the order breaks (the one whose line comes first too
    early), or None when it keeps them all."""
    at = {index: position for position, index in enumerate(order)}
    worst: tuple[int, str] | None = None
    for rule in drill.rules:
        for a, b in pairs(drill.lines, rule.order):
            if at[a] < at[b] or (worst is not None and worst[0] <= at[b]):
                continue
            first, later = render(drill.lines[a], params), render(drill.lines[b], params)
            why = render_prose(rule.why, params).strip() or (
                f"{quote_line(norm(later))} comes before {quote_line(norm(first))} in your order; "
                "it has to come after it."
            )
            worst = (at[b], why)
    return worst[1] if worst else None


def _out_of_place(drill: OrderDrill, params: Params, order: list[int], answer: str) -> Judgement:
    """Wrong, naming the first line out of place against the right order it follows longest."""
    want = [norm(render(line, params)) for line in drill.lines]
    expected = "\n".join(render(line, params) for line in drill.lines)
    got = [line for line in answer.splitlines() if line.strip()]
    gn = [want[i] for i in order]
    orders = [want] + [[norm(render(x, params)) for x in other] for other in drill.accept]
    closest = max(orders, key=lambda other: _common_prefix(gn, other))
    i = _common_prefix(gn, closest)
    right = closest.index(gn[i])
    where = "earlier" if right < i else "later"
    why = f"it belongs {where}"
    early = made_later([norm(line) for line in got], i) if where == "later" else None
    if early:
        why = f"it uses `{early[0]}`, made on line {early[1] + 1}"
    msg = f"Line {i + 1} ({quote_line(got[i])}) is out of place: {why}."
    return Judgement("wrong", msg, expected, "order")


def decide(drill: OrderDrill, params: Params, answer: str) -> Judgement | list[int]:
    """The judgement reached without the sandbox, or the line numbers (from 1, in the
    learner's order) to run when the drill's check must decide."""
    order = read_order(drill, params, answer)
    if isinstance(order, Judgement):
        return order
    want = [norm(render(line, params)) for line in drill.lines]
    expected = "\n".join(render(line, params) for line in drill.lines)
    gn = [want[i] for i in order]
    if order == sorted(order):
        return Judgement("correct", "Correct.", expected)
    if any(gn == [norm(render(x, params)) for x in other] for other in drill.accept):
        return Judgement("correct", "Correct: this drill accepts that order too.", expected)
    if drill.constraints:
        why = _broken(drill, params, order)
        if why:
            return Judgement("wrong", why, expected, "order")
        if drill.run is None:
            return Judgement("correct", "Correct: this order keeps every constraint the drill "
                             "states, so it is right too.", expected)  # fmt: skip
    if drill.run is not None:
        return [i + 1 for i in order]
    return _out_of_place(drill, params, order, answer)


def judge_order(drill: OrderDrill, params: Params, answer: str) -> Judgement:
    """The judgement of an order answer that needs no run (an ``error`` when it does)."""
    decided = decide(drill, params, answer)
    if isinstance(decided, Judgement):
        return decided
    return Judgement("error", "This order drill's answer must be run in the sandbox.", "")


def run_kwargs(drill: OrderDrill, params: Params, numbers: list[int]) -> dict[str, object]:
    """The probe's arguments for running ``numbers`` (the learner's order) of the drill."""
    assert drill.run is not None
    return {
        "setup": drill.setup_code(params),
        "lines": [render(line, params) for line in drill.lines],
        "order": numbers,
        "check": render(drill.run.assert_, params),
    }


def judge_run(drill: OrderDrill, params: Params, data: OrderData) -> Judgement:
    """The judgement on the learner's order from what running it gave."""
    expected = "\n".join(render(line, params) for line in drill.lines)
    if isinstance(data, OrderAuthoring):
        err = data.error
        where = f" at line {err.line}" if err.line else ""
        what = {"setup": "setup", "lines": "lines", "check": "run's assert"}[data.field]
        return Judgement("authoring", f"The drill is broken: its {what} raised {err.type}"
                         f"{where}: {err.message}", expected)  # fmt: skip
    if isinstance(data, OrderRaised):
        text = norm(render(drill.lines[data.line - 1], params))
        err = data.error
        return Judgement("wrong", f"Run in your order, line {data.position} ({quote_line(text)}) raises "
                         f"{err.type}: {err.message}", expected, "order")  # fmt: skip
    if isinstance(data, OrderFailed):
        message = (
            data.message.strip() or "Run in your order, the lines do not do what the drill asks."
        )
        return Judgement("wrong", message, expected, "order")
    return Judgement("correct", "Correct: run in your order, the lines do what the drill asks.",
                     expected)  # fmt: skip


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n
