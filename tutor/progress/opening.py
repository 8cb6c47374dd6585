"""Opening the learner's progress so that nothing stops the tutor.

``open_store`` gives a working store in every case: the real one, or, when the file is damaged,
newer, or cannot be written, a stand-in in memory (a copy of the file when it can be read)
together with the ``StoreError`` saying why, for the UI to tell the learner. The file itself is
kept as it is. ``fresh_start`` sets a damaged or newer file aside (renamed, not deleted) and
opens a new one; attempts made meanwhile were journalled and are saved into it.
"""

from __future__ import annotations

from pathlib import Path

from tutor.progress.database import StoreError, memory_copy, set_aside
from tutor.progress.store import Store
from tutor.settings import home_dir

#: what the learner is told when the tutor carries on with a stand-in, by StoreError.kind
_MEANWHILE = "what you do now is kept aside and saved once {}."
CARRY_ON = {
    "corrupt": "The tutor carries on: " + _MEANWHILE.format("a progress file can be used"),
    "newer": "The tutor carries on: " + _MEANWHILE.format("a progress file can be used"),
    "unwritable": "The tutor carries on with a copy: " + _MEANWHILE.format("it can be written"),
    "full": "The tutor carries on with a copy: " + _MEANWHILE.format("there is space"),
    "locked": "The tutor carries on with a copy: " + _MEANWHILE.format("it is free"),
}


def default_path() -> Path:
    """Where the progress database lives."""
    return home_dir() / "progress.db"


def open_store(path: Path | None = None) -> tuple[Store, StoreError | None]:
    """The progress store at ``path``; when it cannot be opened, a stand-in and the error."""
    path = path or default_path()
    try:
        return Store(path), None
    except StoreError as exc:
        error = exc
    source = path if error.kind in ("unwritable", "full", "locked") else None
    why = f"{error.message} {CARRY_ON[error.kind]}"
    return Store(path, conn=memory_copy(source), why=why), error


def fresh_start(path: Path | None = None) -> tuple[Store, Path]:
    """Set the file at ``path`` aside and open a new, empty one; returns it and the backup's
    path. Raises StoreError if even a new file cannot be created."""
    path = path or default_path()
    backup = set_aside(path)
    return Store(path), backup
