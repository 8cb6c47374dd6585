"""Make a run's raw output safe to show: UTF-8 with replacement, no terminal control sequences.

Torch-free; used by the supervisor before anything reaches the UI.
"""

from __future__ import annotations

from tutor.safe_text import strip_controls


def clean_output(data: bytes) -> str:
    """Decode bytes as UTF-8 (bad bytes become U+FFFD) and strip control sequences.

    ``\\r\\n`` becomes ``\\n``; a lone ``\\r`` is dropped like any other control character.
    """
    return strip_controls(data.decode("utf-8", errors="replace"))
