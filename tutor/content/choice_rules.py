"""Choice drills: a wrong answer's ``why`` must not give the right answer away.

A learner who picks a wrong answer reads its ``why`` and then picks again; a ``why`` that
contains the correct answer (or any four words of it in a row) turns the drill into reading.
"""

from __future__ import annotations

import re
from typing import Any

#: how many consecutive words of a long correct answer a ``why`` may not repeat
RUN = 4


def _words(text: str) -> list[str]:
    return re.findall(r"[\w.()+\-*/×]+", text.lower().replace("`", ""))


def giveaway(right: str, why: str) -> str | None:
    """The words of ``right`` that ``why`` repeats (the whole answer when it is short, else a
    run of ``RUN`` words), or None when it gives nothing away."""
    answer, said = _words(right), " " + " ".join(_words(why)) + " "
    if not answer:
        return None
    runs = [answer] if len(answer) <= RUN else [answer[i : i + RUN] for i in range(len(answer) - RUN + 1)]  # fmt: skip
    for run in runs:
        if f" {' '.join(run)} " in said:
            return " ".join(run)
    return None


def choice_problems(choices: Any) -> list[tuple[int, str]]:
    """``(index, message)`` for each wrong choice whose ``why`` repeats the correct answer."""
    if not isinstance(choices, list):
        return []
    right = [c for c in choices if isinstance(c, dict) and c.get("correct") is True]
    if len(right) != 1 or not isinstance(right[0].get("answer"), str):
        return []
    out = []
    for i, choice in enumerate(choices):
        if not isinstance(choice, dict) or choice.get("correct") or not isinstance(choice.get("why"), str):  # fmt: skip
            continue
        found = giveaway(right[0]["answer"], choice["why"])
        if found:
            out.append((i, f"this wrong answer's `why` gives the right answer away (\"{found}\"); "
                           "say why this answer is wrong without naming the right one"))  # fmt: skip
    return out
