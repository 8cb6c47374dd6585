"""Editing a drill answer in the learner's own editor, and watching the file for saves."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from tutor.settings import home_dir


def editor_command() -> list[str]:
    """``$VISUAL`` or ``$EDITOR`` split into words (``vi`` when neither is set)."""
    raw = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    return shlex.split(raw)


class EditorSession:
    """The file under ``$TUTOR_HOME/work/`` that holds one drill's answer."""

    def __init__(self, full_id: str, code: bool) -> None:
        suffix = ".py" if code else ".txt"
        self.path: Path = home_dir() / "work" / (full_id.replace("/", "--") + suffix)
        self.watching = False
        """Whether a watch worker re-grades on save."""
        self._mtime: int | None = None

    def write(self, text: str) -> None:
        """Put ``text`` in the file and remember its modification time."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(text, encoding="utf-8")
        self._mtime = self.path.stat().st_mtime_ns

    def read(self) -> str:
        """The file's text (and remember its modification time)."""
        self._mtime = self.path.stat().st_mtime_ns
        return self.path.read_text(encoding="utf-8")

    def changed(self) -> bool:
        """Whether the file was saved since the last write or read."""
        try:
            return self.path.stat().st_mtime_ns != self._mtime
        except FileNotFoundError:
            return False

    def edit(self) -> None:
        """Run the editor on the file in the foreground (the app must be suspended).

        Unlike every other child of the UI, the editor keeps the terminal's stdin: the app is
        suspended while it runs, so nothing races it for keystrokes."""
        subprocess.run([*editor_command(), str(self.path)], check=False)
