"""Names for what a wrong answer did (the ``outcome`` an attempt records), as the class report
groups wrong answers: by the drill's ``wrong`` entry they behaved like, or the rule that
refused them, or how they failed."""

from __future__ import annotations

__all__ = ["label"]

_PLAIN = {
    "max_lines": "refused: more lines of code than `max_lines`",
    "shape": "a result of the wrong shape",
    "broadcasting": "a result of the wrong shape (broadcasting)",
    "values": "wrong values",
    "value": "a wrong number",
    "dtype_promotion": "a result of the wrong dtype",
    "dtype": "a wrong dtype",
    "raised": "raised an exception",
    "type": "returned the wrong type",
    "input_changed": "changed its inputs",
    "requires_grad": "a result with the wrong requires_grad",
    "invalid": "could not be read (a syntax error, or not one of the offered lines)",
    "timeout": "ran out of time",
    "memory": "ran out of memory",
    "wrong_order": "lines in the wrong order",
    "mistake": "like one of the drill's `wrong` entries",
    "unit": "an answer in another unit",
    "tampered": "refused: reaches what no answer may (the check's own names, the interpreter)",
    "wrong": "wrong",
    "": "not recorded (attempts made before the tutor recorded it)",
}
_RULES = {
    "not_allowed": "refused: calls what `allow` does not list",
    "forbidden": "refused: uses what `forbid` lists",
    "forbidden_loop": "refused: a loop `forbid` refuses",
}


def label(outcome: str, wrong: tuple[str, ...] = ()) -> str:
    """A readable name for ``outcome`` (``wrong[1]``, ``not_allowed: torch.sort``, ``shape``,
    ...); ``wrong`` holds the feedback of the drill's ``wrong`` answers, to quote."""
    if outcome.startswith("wrong[") and outcome.endswith("]"):
        index = outcome[6:-1]
        quote = ""
        if index.isdigit() and int(index) < len(wrong) and wrong[int(index)].strip():
            quote = f': "{" ".join(wrong[int(index)].split())}"'
        return f"like the drill's wrong answer {index}{quote}"
    rule, _, names = outcome.partition(": ")
    if rule in _RULES:
        return _RULES[rule] + (f" ({names})" if names else "")
    return _PLAIN.get(outcome, outcome.replace("_", " "))
