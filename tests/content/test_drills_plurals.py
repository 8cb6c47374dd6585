"""What a learner reads in a drill counts in words that agree ("1 thread", "4 devices"), never
"thread(s)": in its prose (prompt, hints, explain, a choice's why, a mistake's feedback) and in
the strings of its code (a check's assertion messages are feedback too)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

PACKS = sorted((Path(__file__).resolve().parents[2] / "drills").glob("*.yaml"))

#: a word with "(s)" glued on: "thread(s)", "device(s)"
HEDGED = re.compile(r"[A-Za-z]\(s\)")
#: torch's own words, quoted as torch prints them
TORCHS_OWN = ("Missing key(s)", "Unexpected key(s)")
#: keys whose text is code: only its string literals are read by a learner
CODE = {"setup", "starter", "reference", "assert", "code", "ask", "lines", "wrong"}


def _strings(node: object, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, str(k))
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v, key)
    elif isinstance(node, str):
        yield key, node


def _read(key: str, text: str) -> Iterator[str]:
    """The parts of ``text`` a learner reads as words."""
    if key not in CODE:
        yield text
        return
    try:
        tree = ast.parse(text.replace("{{", "{").replace("}}", "}"))
    except SyntaxError:
        yield from (line.partition("#")[2] for line in text.splitlines())
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


@pytest.mark.parametrize("pack", PACKS, ids=[p.stem for p in PACKS])
def test_drill_text_says_its_plurals(pack):
    data = yaml.safe_load(pack.read_text())
    hedged = [
        f"{key}: {part.strip()[:80]}"
        for key, text in _strings(data)
        for part in _read(key, text)
        if HEDGED.search(part) and not any(own in part for own in TORCHS_OWN)
    ]
    assert not hedged, hedged
