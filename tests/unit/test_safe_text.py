"""strip_controls: every way text can drive a terminal is removed, all else is kept."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.safe_text import SafeStream, has_controls, strip_all, strip_controls


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\x1b]0;PWNED\x07b", "ab"),  # window title (OSC 0, BEL)
        ("a\x1b]2;PWNED\x1b\\b", "ab"),  # window title (OSC 2, ST)
        ("\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"),  # hyperlink
        ("x\x1b[2J\x1b[H\x1b[3Jy", "xy"),  # clear screen, home, clear scrollback
        ("\x1b[31mred\x1b[0m", "red"),  # colour
        ("a\x1bPq#0;2;0;0;0\x1b\\b", "ab"),  # DCS (sixel)
        ("a\x1b_payload\x1b\\b", "ab"),  # APC
        ("a\x1b(Bb\x1bcc", "abc"),  # charset switch, full reset
        ("a\x9b31mb", "ab"),  # 8-bit CSI
        ("a\x9d0;T\x9cb", "ab"),  # 8-bit OSC with 8-bit ST
        ("a\x00b\x08c\x7fd\x85e", "abcde"),  # C0, DEL, C1
        ("line\r\nnext\rover", "line\nnextover"),  # no carriage-return overwrites
        ("keep\ttabs\nand lines", "keep\ttabs\nand lines"),
        ("[bold red]x[/] naïve → 张量 ✓", "[bold red]x[/] naïve → 张量 ✓"),  # markup is text
    ],
)
def test_strip_controls(raw, shown):
    assert strip_controls(raw) == shown
    assert has_controls(raw) == (raw != shown or "\r" in raw)


@given(st.text(max_size=300))
def test_nothing_left_can_drive_a_terminal(text):
    out = strip_controls(text)
    assert not has_controls(out)
    assert strip_controls(out) == out


def test_strip_all_walks_data():
    data = {"t\x1b[2J": ["a\x07", {"b": "c\x1b]0;x\x07"}], "n": 3, "none": None}
    assert strip_all(data) == {"t": ["a", {"b": "c"}], "n": 3, "none": None}


def test_safe_stream_strips_and_is_not_a_tty():
    sink = io.StringIO()
    stream = SafeStream(sink)
    assert stream.write("a\x1b]0;t\x07b\n") == len("a\x1b]0;t\x07b\n")
    stream.flush()
    assert sink.getvalue() == "ab\n" and not stream.isatty()
