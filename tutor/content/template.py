"""The `{name}` placeholders of drill text.

One rule for prose and code alike: a placeholder is ``{name}`` where ``name`` is a Python
identifier. The pairs ``{{`` and ``}}`` are escapes (scanned left to right, as in ``str.format``),
so ``{{name}}`` is never a placeholder. ``render`` replaces only placeholders whose name is in
``params``; every other brace, escape or not, is left exactly as written, so Python code with
dicts, sets, f-strings and format specs survives unchanged. Prose may additionally ask for the
escapes to be turned into single braces (``unescape=True``), so an instructor can show a literal
``{a}`` next to a param named ``a`` by writing ``{{a}}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_TOKEN = re.compile(r"\{\{|\}\}|\{([^\W\d]\w*)\}")


def placeholders(text: str) -> set[str]:
    """Return the names of the ``{name}`` placeholders in ``text`` (escapes excluded)."""
    if "{" not in text:
        return set()
    names = set(_TOKEN.findall(text))
    names.discard("")  # the escapes match with an empty group
    return names


def render(text: str, params: Mapping[str, Any], *, unescape: bool = False) -> str:
    """Replace each ``{name}`` whose name is in ``params`` with ``str(params[name])``.

    Any other brace is left untouched. With ``unescape=True`` (for prose shown to the learner)
    ``{{`` and ``}}`` become ``{`` and ``}``; by default (code) they stay as written.
    """

    def replace(m: re.Match[str]) -> str:
        name = m.group(1)
        if name is None:
            return m.group(0)[0] if unescape else m.group(0)
        if name in params:
            return str(params[name])
        return m.group(0)

    return _TOKEN.sub(replace, text)
