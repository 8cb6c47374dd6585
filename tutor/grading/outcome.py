"""What a graded answer did, in one short key: the class report groups wrong answers by it.

``wrong[1]`` (it fails exactly as the drill's second ``wrong`` answer), ``not_allowed: torch.sort``
or ``forbidden: for`` (a rule refused it, and what it used), ``max_lines``, or the failure's
category (``shape``, ``values``, ``raised``, ...), else its status (``invalid``, ``timeout``).
An answer graded correct has no outcome (``""``).
"""

from __future__ import annotations

from tutor.grading.grade import Grade

__all__ = ["RULES", "outcome_of"]

#: the categories of an answer refused by the drill's rules (allow, forbid, max_lines)
RULES = ("not_allowed", "forbidden", "forbidden_loop", "max_lines")


def outcome_of(grade: Grade) -> str:
    """The outcome key of ``grade`` (``""`` when it is correct)."""
    if grade.correct:
        return ""
    matched = (grade.failure or {}).get("matched")
    if isinstance(matched, int):
        return f"wrong[{matched}]"
    category = grade.category or ""
    if category in RULES and grade.forbidden:
        names = sorted({used.partition(" (")[0] for used in grade.forbidden})
        return f"{category}: {', '.join(names)}"
    return category or str(grade.status)
