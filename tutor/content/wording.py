"""Plain-words messages for validation errors of content files."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: how a union member is written in a file, for "expected X or Y"
FORMS = {
    "IntParam": "`{int: [low, high]}`",
    "ChoiceParam": "`{choice: [value, ...]}`",
    "TensorArg": "`{tensor: [shape, ...]}`",
    "ValueArg": "`{value: ...}`",
    "int": "an integer",
    "str": "text (a param name)",
    "chain": "a list of lines (each its text or its number)",
    "rule": "`{order: [lines...], why: ...}`",
}

#: why a required field is needed, by (model name, field)
REASONS = {
    ("PredictDrill", "ask"): "a predict drill needs the expression whose value is the truth",
    ("OrderDrill", "lines"): "an order drill needs its lines in the correct order",
    ("ChoiceDrill", "choices"): "a choice drill needs its answers, exactly one correct",
    ("CodeDrill", "starter"): "a code drill needs the code the learner starts from",
    ("CodeDrill", "reference"): "a code drill needs a correct answer to grade against",
    ("CodeDrill", "check"): "a code drill needs to say how answers are graded",
    ("FixDrill", "starter"): "a fix drill needs the broken code the learner repairs",
    ("FixDrill", "reference"): "a fix drill needs a repaired version to grade against",
    ("FixDrill", "check"): "a fix drill needs to say how answers are graded",
    ("Choice", "answer"): "the text of this answer",
    ("Pack", "pack"): "the pack id: lowercase letters, digits and '-'",
    ("Pack", "title"): "a title shown in the drill list",
    ("Pack", "chapter"): "the default chapter (1-12) of the pack's drills",
    ("Pack", "drills"): "the pack's drills",
    ("Lesson", "chapter"): "the chapter (1-12) this lesson teaches",
    ("Lesson", "title"): "the lesson's title",
    ("Lesson", "thesis"): "the one-line thesis of the chapter",
}

_GENERIC = {
    "prompt": "what the learner is asked, in Markdown",
    "id": "unique in the pack: lowercase letters, digits and '-'",
}

_TYPES = {
    "int_type": "expected an integer",
    "int_parsing": "expected an integer",
    "int_from_float": "expected an integer, not a fraction",
    "float_type": "expected a number",
    "float_parsing": "expected a number",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "string_type": "expected text",
    "list_type": "expected a list (`- item` lines or `[a, b]`)",
    "tuple_type": "expected a list (`- item` lines or `[a, b]`)",
    "dict_type": "expected a mapping (`key: value` lines)",
    "model_type": "expected a mapping (`key: value` lines)",
    "model_attributes_type": "expected a mapping (`key: value` lines)",
}


def reason_for(model: Any, name: Any) -> str:
    """`` (why the field is needed)`` for a missing field, or an empty string."""
    model_name = getattr(model, "__name__", "")
    reason = REASONS.get((model_name, name)) or _GENERIC.get(name)
    return f" ({reason})" if reason else ""


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text" if "\n" in value or len(value) > 30 else f"`{value}`"
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value}`"


def type_message(error: dict[str, Any], value: Any, path: tuple[Any, ...]) -> str:
    """The plain-words message for a type or constraint error of pydantic."""
    kind, ctx = error["type"], error.get("ctx") or {}
    last = path[-1] if path else None
    if (
        kind in ("too_short", "too_long")
        and last == "int"
        or (kind == "tuple_type" and last == "int")
    ):
        return "expected `[low, high]`: two integers, both inclusive"
    if kind == "too_short":
        if last == "lines":
            return f"an order drill needs at least two lines, found {ctx.get('actual_length')}"
        if last == "choices":
            return f"a choice drill needs at least two choices, found {ctx.get('actual_length')}"
        if last == "drills":
            return "a pack needs at least one drill"
        return f"needs at least {ctx.get('min_length')} items, found {ctx.get('actual_length')}"
    if kind == "too_long":
        return f"allows at most {ctx.get('max_length')} items, found {ctx.get('actual_length')}"
    if kind == "string_pattern_mismatch":
        return (
            f"{_shown(value)} is not a valid id: use lowercase letters, digits and '-', "
            "starting with a letter or digit"
        )
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": "at least", "greater_than": "more than"}.get(kind)
        bound = bound or {"less_than_equal": "at most", "less_than": "less than"}[kind]
        limit = next(iter(ctx.values()), "?")
        return f"must be {bound} {limit}, got {_shown(value)}"
    if kind == "literal_error":
        return f"expected {ctx.get('expected')}, got {_shown(value)}"
    if kind in _TYPES:
        message = _TYPES[kind]
        if kind == "string_type" and value is not None and not isinstance(value, dict | list):
            shown = _shown(value)
            return f'{message}, got {shown} (quote it: "{shown.strip("`")}")'
        return f"{message}, got {_shown(value)}"
    return str(error["msg"])


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the noun in the right number, thousands separated: ``1 pack``, ``2,048 calls``."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def listed(items: Sequence[str]) -> str:
    """Items in words: ``a``, ``a and b``, ``a, b and c`` ("" for none)."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + f" and {items[-1]}"
