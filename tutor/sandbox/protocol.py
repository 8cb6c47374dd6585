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
from typing import Any, Literal, Required, TypedDict

#: a JSON object as ``json.loads`` gives it: what a message carries that the protocol does not
#: shape (a probe's kwargs and data, a learner process's report); read it defensively
JsonObject = dict[str, Any]


class Request(TypedDict, total=False):
    """Supervisor -> runtime: run code, call a probe, kill a run, or exit."""

    op: Required[Literal["run", "call", "kill", "exit"]]
    id: int
    code: str
    target: str
    kwargs: JsonObject
    limits: JsonObject


class Ready(TypedDict, total=False):
    """Runtime -> supervisor, once torch is imported: what the runtime is and how it is held."""

    event: Required[Literal["ready"]]
    pid: int
    uid: int | None
    layers: list[str]
    torch: str
    python: str
    executable: str
    scratch: str
    threads: int
    probe_errors: dict[str, str]
    huge_mappings: int


class Done(TypedDict, total=False):
    """Runtime -> supervisor, per run: how it ended, its output and its data."""

    event: Required[Literal["done"]]
    id: Required[int | None]
    layers: list[str]
    status: str
    reason: str
    stdout: str
    stderr: str
    exception: JsonObject | None
    value: Any
    duration_ms: float
    timings: dict[str, float]


def encode(message: Request | Ready | Done) -> bytes:
    """One message as one line of JSON (newline-terminated bytes)."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def decode(line: bytes) -> JsonObject:
    """One line back into a JSON object (raises ValueError on garbage); the caller checks
    which message it is."""
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError("not a JSON object")
    return message


def pack_bytes(data: bytes) -> str:
    """Raw output bytes as text for a JSON message."""
    return base64.b64encode(data).decode("ascii")


def unpack_bytes(text: str | None) -> bytes:
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
