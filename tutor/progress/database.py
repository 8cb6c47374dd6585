"""Opening the progress database, and saying plainly why it cannot be opened.

``connect`` opens (or creates, readable by its owner only) the SQLite file and brings its
schema up to date; every way that fails is a ``StoreError`` with a ``kind`` the UI can act on
and a message a learner can read. ``memory_copy`` gives a database in memory (a copy of the
file when it can be read) to carry on with; ``set_aside`` renames a broken file out of the way,
keeping it, so a fresh one can start.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from tutor.progress.schema import SCHEMA_VERSION, NewerSchema, migrate

#: SQLite's own files next to the database
SIDE_FILES = ("-wal", "-shm", "-journal")


class StoreError(Exception):
    """The progress database cannot be used as it is.

    ``kind``: ``corrupt`` (not a database, or damaged), ``newer`` (written by a newer tutor),
    ``unwritable`` (no permission, read-only folder), ``full`` (no space left), ``locked``
    (another program holds it).
    """

    def __init__(self, kind: str, path: Path, detail: str) -> None:
        self.kind = kind
        self.path = path
        self.detail = detail
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """One plain sentence: what is wrong with which file."""
        what = {
            "corrupt": "is damaged or not a progress database",
            "newer": "was written by a newer version of tutor",
            "unwritable": "cannot be written",
            "full": "cannot be written: the disk is full",
            "locked": "is locked by another program",
        }[self.kind]
        return f"The progress file {self.path} {what} ({self.detail})."


def classify(exc: BaseException) -> tuple[str, str]:
    """``(kind, detail)`` for an error raised while opening or writing the database."""
    if isinstance(exc, NewerSchema):
        return "newer", str(exc)
    text = str(exc)
    low = text.lower()
    if "disk is full" in low or getattr(exc, "errno", None) == 28:
        return "full", text
    if "locked" in low or "busy" in low:
        return "locked", text
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return "corrupt", text
    if isinstance(exc, OSError) and exc.strerror:
        return "unwritable", exc.strerror
    return "unwritable", text


def _create_private(path: Path) -> None:
    """Create the folder (0700) and an empty database file (0600) if they do not exist."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))


def _no_space(folder: Path) -> bool:
    try:
        return os.statvfs(folder).f_bavail == 0
    except OSError:
        return False


def _wal(conn: sqlite3.Connection, patience: float = 10.0) -> None:
    """Switch to WAL. Several tutors opening a fresh file at once all ask for the switch, and
    SQLite answers "locked" at once to the ones that lose (its busy handler does not wait on
    a journal mode change), so they retry, a little longer each time, for ``patience`` s."""
    deadline = time.monotonic() + patience
    pause = 0.01
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


def connect(path: Path) -> sqlite3.Connection:
    """Open the database at ``path`` in WAL mode, checked and migrated; raises StoreError."""
    conn = None
    try:
        _create_private(path)
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
        # look before changing anything: a damaged or newer file is left exactly as it is
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise NewerSchema(version)
        (verdict,) = conn.execute("PRAGMA quick_check(1)").fetchone()
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed: {verdict}")
        _wal(conn)
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn)
    except (sqlite3.Error, OSError, NewerSchema) as exc:
        if conn is not None:
            conn.close()
        kind, detail = classify(exc)
        if kind == "unwritable" and _no_space(path.parent):  # SQLite says "disk I/O error"
            kind = "full"
        raise StoreError(kind, path, detail) from exc
    return conn


def memory_copy(path: Path | None) -> sqlite3.Connection:
    """A database in memory with the current schema: a copy of ``path`` when that file can be
    read and is not newer than this tutor, else empty."""
    memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    if path is not None and path.is_file():
        try:
            source = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
            try:
                (version,) = source.execute("PRAGMA user_version").fetchone()
                if version <= SCHEMA_VERSION:
                    source.backup(memory)
            finally:
                source.close()
        except sqlite3.Error:
            memory.close()
            memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        migrate(memory)
    except (sqlite3.Error, NewerSchema):
        memory.close()
        memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        migrate(memory)
    return memory


def set_aside(path: Path, *, now: datetime | None = None) -> Path:
    """Rename ``path`` (and SQLite's side files) to ``NAME.broken-STAMP``; returns the new
    path of the database file. Nothing is deleted."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.broken-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.broken-{stamp}-{n}")
    if path.exists():
        path.rename(target)
    for side in SIDE_FILES:
        extra = path.with_name(path.name + side)
        if extra.exists():
            extra.rename(target.with_name(target.name + side))
    return target
