"""JSON lines between the supervisor and the runtime (zygote).

Supervisor -> runtime: ``{"op": "run", "id", "code", "limits"}``,
``{"op": "call", "id", "target", "kwargs", "limits"}``, ``{"op": "kill", "id"}``, ``{"op": "exit"}``.
Runtime -> supervisor: ``{"event": "ready", ...}`` once, then per run ``{"event": "done", "id",
"status", "reason", "stdout" (base64), "stderr" (base64), "exception", "value", "duration_ms",
"truncated"}``. Torch-free.
"""

from __future__ import annotations

import base64
import json


def encode(message: dict) -> bytes:
    """One message as one line of JSON (newline-terminated bytes)."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def decode(line: bytes) -> dict:
    """One line back into a message (raises ValueError on garbage)."""
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError("not a JSON object")
    return message


def pack_bytes(data: bytes) -> str:
    """Raw output bytes as text for a JSON message."""
    return base64.b64encode(data).decode("ascii")


def unpack_bytes(text: str) -> bytes:
    """The inverse of ``pack_bytes``."""
    return base64.b64decode(text or "")


class LineReader:
    """Split what arrives on a raw descriptor into complete lines."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, data: bytes) -> list[bytes]:
        """Add data; return the complete lines now available."""
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        return [line for line in lines if line.strip()]
