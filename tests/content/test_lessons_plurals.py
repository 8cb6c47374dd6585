"""What a lesson's code prints reads as English: a count is followed by the word it counts, in the
singular for one and the plural otherwise ("1 compile", "4 compiles"), never "compile(s)"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tutor.content.lesson_text import parse_snippets

LESSONS = sorted((Path(__file__).resolve().parents[2] / "lessons").glob("[0-9][0-9]-*.md"))

#: a word with "(s)" glued on: "compile(s)", "event(s)"
HEDGED = re.compile(r"[A-Za-z]\(s\)")
#: a count then a word: "1 compile", "3 events"
COUNTED = re.compile(r"\b(\d+) (new compile|new program|compile|event|buffer)(s?)\b")


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_recorded_outputs_say_their_plurals(lesson):
    outputs = [block.output or "" for block in parse_snippets(lesson.read_text())]
    hedged = [line for out in outputs for line in out.splitlines() if HEDGED.search(line)]
    assert not hedged, f"{lesson.name}: {hedged}"
    wrong = [
        m.group(0)
        for out in outputs
        for m in COUNTED.finditer(out)
        if (m.group(1) == "1") != (m.group(3) == "")
    ]
    assert not wrong, f"{lesson.name}: {wrong}"
