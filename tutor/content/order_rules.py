"""An order drill's constraints: which line each one names, and whether ``lines`` keeps them
(torch-free).

A constraint names lines by their full text (spacing does not matter) or by their number, from
1, in ``lines``; it lists two or more, each to come before the next. ``lines`` is the order shown
as the answer, so it must keep every constraint; a line written twice in ``lines`` cannot be
named, because a learner's order cannot tell the two apart.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from tutor.content.positions import Path


def norm(line: str) -> str:
    """A line as it is compared: runs of blank space are one space, none at the ends."""
    return re.sub(r"\s+", " ", line).strip()


def resolve(lines: list[str], ref: object) -> int | str:
    """The index (from 0) of the line ``ref`` names, or why it names none."""
    if isinstance(ref, bool) or not isinstance(ref, int | str):
        return "name a line by its full text or its number (from 1)"
    texts = [norm(line) for line in lines]
    if isinstance(ref, int):
        if not 1 <= ref <= len(lines):
            return f"there is no line {ref}: `lines` has {len(lines)} (numbered from 1)"
        index = ref - 1
    else:
        hits = [i for i, text in enumerate(texts) if text == norm(ref)]
        if not hits:
            close = difflib.get_close_matches(norm(ref), texts, n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            return f"`{ref}` is not one of the drill's lines{hint}"
        index = hits[0]
    twins = [i + 1 for i, text in enumerate(texts) if text == texts[index] and i != index]
    if twins:
        return (f"line {index + 1} is written the same as line {twins[0]}: a learner's order "
                "cannot tell them apart, so no constraint can name one")  # fmt: skip
    return index


def _order(constraint: Any) -> tuple[list[Any], Path] | None:
    """The refs a constraint lists and where they are inside it (None when not a constraint:
    the schema reports it)."""
    if isinstance(constraint, list):
        return constraint, ()
    if isinstance(constraint, dict) and isinstance(constraint.get("order"), list):
        return constraint["order"], ("order",)
    return None


def constraint_problems(drill: dict[str, Any]) -> list[tuple[Path, str]]:
    """(path inside the drill, message) for each constraint that names no line, names a line
    twice, or that ``lines`` breaks."""
    lines, constraints = drill.get("lines"), drill.get("constraints")
    if not isinstance(lines, list) or not isinstance(constraints, list):
        return []
    lines = [str(line) for line in lines]
    out: list[tuple[Path, str]] = []
    for i, constraint in enumerate(constraints):
        found = _order(constraint)
        if found is None:
            continue
        refs, inner = found
        if len(refs) < 2:
            out.append((("constraints", i, *inner), "a constraint names two lines or more, "
                        "each to come before the next"))  # fmt: skip
            continue
        at: list[int | None] = []
        for j, ref in enumerate(refs):
            index = resolve(lines, ref)
            if isinstance(index, str):
                out.append((("constraints", i, *inner, j), index))
                at.append(None)
            elif index in at:
                out.append((("constraints", i, *inner, j), f"line {index + 1} is named twice"))
                at.append(None)
            else:
                at.append(index)
        for j in range(1, len(at)):
            a, b = at[j - 1], at[j]
            if a is not None and b is not None and a > b:
                out.append((("constraints", i, *inner, j),
                            f"`lines` puts line {b + 1} (`{norm(lines[b])}`) before line {a + 1} "
                            f"(`{norm(lines[a])}`), which this constraint forbids: `lines` is "
                            "shown as the answer, so it must keep every constraint"))  # fmt: skip
    return out


def pairs(lines: list[str], order: list[Any]) -> list[tuple[int, int]]:
    """The (earlier, later) line indices a resolved constraint asks for: each before the next."""
    at = [resolve(lines, ref) for ref in order]
    indices = [a for a in at if isinstance(a, int)]
    return list(zip(indices, indices[1:], strict=False))
