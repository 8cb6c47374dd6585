"""Make a run's raw output safe to show: UTF-8 with replacement, no terminal control sequences.

Torch-free; used by the supervisor before anything reaches the UI.
"""

from __future__ import annotations

import re

#: CSI, OSC, DCS/PM/APC/SOS strings, two-byte ESC sequences, and C0/C1 controls but \t and \n
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI ... final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC ... BEL or ST
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC ... ST
    r"|\x1b[ -/]*[0-~]?"  # other escapes (and a lone ESC)
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)


def clean_output(data: bytes) -> str:
    """Decode bytes as UTF-8 (bad bytes become U+FFFD) and strip control sequences.

    ``\\r\\n`` becomes ``\\n``; a lone ``\\r`` is dropped like any other control character.
    """
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
    return _CONTROL.sub("", text)
