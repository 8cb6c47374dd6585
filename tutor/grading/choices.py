"""Order and choice drills: graded in the UI process, without the sandbox (torch-free).

An ``order`` answer is the drill's lines in the learner's order, one per line (blank lines
ignored; whitespace inside a line does not matter). A ``choice`` answer is the text of the
chosen answer (case and spacing do not matter).
"""

from __future__ import annotations

import re

from tutor.content.models import ChoiceDrill, OrderDrill, Params
from tutor.grading.grade import Judgement
from tutor.grading.variants import render, render_prose


def _norm(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


def judge_order(drill: OrderDrill, params: Params, answer: str) -> Judgement:
    """Compare the learner's sequence with the pack's; name the first line out of place."""
    want = [render(line, params) for line in drill.lines]
    expected = "\n".join(want)
    got = [line for line in answer.splitlines() if line.strip()]
    wn, gn = [_norm(x) for x in want], [_norm(x) for x in got]
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
    orders = [wn] + [[_norm(render(x, params)) for x in order] for order in drill.accept]
    if gn == wn:
        return Judgement("correct", "Correct.", expected)
    if gn in orders:
        return Judgement("correct", "Correct: this drill accepts that order too.", expected)
    # blame the first line out of place in the right order the answer follows longest
    closest = max(orders, key=lambda order: _common_prefix(gn, order))
    i = _common_prefix(gn, closest)
    right = closest.index(gn[i])
    where = "earlier" if right < i else "later"
    msg = f"Line {i + 1}, {quote_line(got[i])}, is out of place: it belongs {where}."
    return Judgement("wrong", msg, expected, "order")


def quote_line(line: str) -> str:
    """``line`` quoted in feedback: as a Markdown code span, or, when it holds code spans of its
    own (a line of prose), in quotation marks, so its Markdown still reads as Markdown."""
    text = line.strip()
    return f"“{text}”" if "`" in text else f"`{text}`"


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def judge_choice(drill: ChoiceDrill, params: Params, answer: str) -> Judgement:
    """Find the picked answer; on a wrong pick, its ``why`` is the feedback."""
    texts = [render_prose(c.answer, params) for c in drill.choices]
    right = next(t for t, c in zip(texts, drill.choices, strict=True) if c.correct)
    key = _norm(answer).lower()
    for text, choice in zip(texts, drill.choices, strict=True):
        if _norm(text).lower() == key:
            if choice.correct:
                return Judgement("correct", "Correct.", right)
            why = render_prose(choice.why, params).strip()
            return Judgement("wrong", why or "Not that one.", right, "choice")
    return Judgement("invalid", "That is not one of the answers offered.", right)
