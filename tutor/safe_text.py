"""Text safe to show in a terminal: no control sequences, no markup surprises.

Anything the tutor did not write itself (learner output, exception messages carried in data,
pack titles, prompts, hints) may hold escape sequences that retitle the window, clear the
screen, plant hyperlinks or rewrite what was printed before. ``strip_controls`` removes them:
CSI, OSC (hyperlinks and title changes included), DCS/SOS/PM/APC strings, other two-byte escapes
and every C0/C1 control character except newline and tab. ``keep_tail`` caps error text by
keeping its end, where the cause is. Torch-free and import-light: the
content layer, the sandbox supervisor, the CLI and the UI all use it.

``SafeStream`` wraps ``sys.stdout``/``sys.stderr`` for the CLI so every line any subcommand
prints passes through ``strip_controls``; it says it is not a terminal, so Rich prints plain
text and Rich markup in data is never interpreted by a console either.
"""

from __future__ import annotations

import io
import re
from typing import Any, TextIO

_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI ... final byte
    r"|\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC ... BEL or ST
    r"|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?"  # DCS, SOS, PM, APC ... ST
    r"|\x1b[ -/]*[0-~]?"  # other escapes (and a lone ESC)
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # 8-bit OSC/DCS/... strings
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)

_ANY = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def has_controls(text: str) -> bool:
    """Whether ``text`` holds any control character but newline and tab."""
    return _ANY.search(text) is not None


def strip_controls(text: str) -> str:
    """``text`` without terminal control sequences (``\\r\\n`` becomes ``\\n``; a lone ``\\r``
    is dropped like any other control character; newline and tab are kept)."""
    if not _ANY.search(text):  # the common case: nothing to strip
        return text
    return _CONTROL.sub("", text.replace("\r\n", "\n"))


def keep_tail(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters by dropping from its beginning: the end of
    an error is where its cause is (a compiler's last lines). A short first line (the error's
    summary, at most a quarter of ``limit``) is kept; "…" marks what was dropped."""
    if len(text) <= limit:
        return text
    first, newline, _ = text.partition("\n")
    head = first + "\n…" if newline and len(first) <= limit // 4 else "…"
    return head + text[len(text) - (limit - len(head)) :]


def strip_all(data: Any) -> Any:
    """``data`` (dicts, lists, strings, numbers) with every string run through
    ``strip_controls``; dict keys too."""
    if isinstance(data, str):
        return strip_controls(data)
    if isinstance(data, dict):
        return {strip_all(k): strip_all(v) for k, v in data.items()}
    if isinstance(data, list):
        return [strip_all(v) for v in data]
    return data


class SafeStream(io.TextIOBase):
    """A text stream that strips control sequences from everything written to ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.stream, "errors", None)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False  # so Rich and click add no colour codes of their own

    def write(self, text: str) -> int:
        self.stream.write(strip_controls(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()
