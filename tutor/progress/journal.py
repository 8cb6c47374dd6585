"""Writes the progress database could not take yet, kept until it can.

When the database cannot be written (a full disk, a read-only folder, a broken file), each
attempt is appended to a small journal file next to it, one JSON object a line, flushed to
disk; when even that fails it is held in memory. The store replays the journal into the
database as soon as a write succeeds again (and when it is next opened), then empties it.
Replaying is idempotent: attempts carry their uid, so one saved twice is stored once.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

Entry = dict[str, Any]
"""One journal line: ``{"kind": "attempt" | "lesson", ...}``."""


class Journal:
    """A file of pending writes (``path``), plus those that could not even reach it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.held: list[Entry] = []
        """entries that could not be written to the file"""

    def add(self, entry: Entry) -> bool:
        """Keep ``entry``; True when it reached the file, False when held in memory only."""
        line = json.dumps(entry, separators=(",", ":")) + "\n"
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                written = os.write(fd, line.encode())
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            self.held.append(entry)
            return False
        if written != len(line.encode()):  # a partial line is skipped when read back
            self.held.append(entry)
            return False
        return True

    def entries(self) -> list[Entry]:
        """Every pending entry, the file's first (lines that do not parse are skipped)."""
        found: list[Entry] = []
        try:
            with open(self.path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(entry, dict) and entry.get("kind") in ("attempt", "lesson"):
                        found.append(entry)
        except OSError:
            pass
        return found + self.held

    def __len__(self) -> int:
        return len(self.entries())

    def clear(self) -> None:
        """Forget every entry (they are saved)."""
        self.held.clear()
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError:  # cannot remove it: empty it instead (replaying twice is harmless anyway)
            with contextlib.suppress(OSError):
                os.truncate(self.path, 0)
