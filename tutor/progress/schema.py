"""The progress database's schema, as an ordered list of migrations.

``PRAGMA user_version`` holds how many migrations a database has applied; opening a database
applies the missing ones in one transaction, so an old file is upgraded in place and a
half-applied upgrade never exists.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[str] = [
    # 1: attempts, lessons read, review cards, where the learner left off
    """
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        drill TEXT NOT NULL,
        seed INTEGER NOT NULL,
        answer TEXT NOT NULL,
        correct INTEGER NOT NULL,
        status TEXT NOT NULL,
        hints_used INTEGER NOT NULL DEFAULT 0,
        seconds REAL NOT NULL DEFAULT 0,
        at TEXT NOT NULL
    );
    CREATE INDEX attempts_drill ON attempts (drill);
    CREATE TABLE lessons (
        chapter INTEGER PRIMARY KEY,
        read_at TEXT NOT NULL
    );
    CREATE TABLE cards (
        drill TEXT PRIMARY KEY,
        card TEXT NOT NULL,
        due TEXT NOT NULL
    );
    CREATE INDEX cards_due ON cards (due);
    CREATE TABLE location (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        kind TEXT NOT NULL,
        ident TEXT NOT NULL,
        at TEXT NOT NULL
    );
    """,
    # 2: the day each chapter was first completed
    """
    CREATE TABLE chapters (
        chapter INTEGER PRIMARY KEY,
        done_at TEXT NOT NULL
    );
    """,
    # 3: attempts made after the answer was shown (kept, but they neither master nor schedule)
    """
    ALTER TABLE attempts ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0;
    """,
    # 4: what a graded answer did (the class report groups wrong answers by it)
    """
    ALTER TABLE attempts ADD COLUMN outcome TEXT NOT NULL DEFAULT '';
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)


class NewerSchema(RuntimeError):
    """The database was written by a newer tutor (its schema version is past ours)."""

    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__(
            f"schema version {version}; this tutor reads up to {SCHEMA_VERSION}: upgrade tutor"
        )


def _version(conn: sqlite3.Connection) -> int:
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise NewerSchema(version)
    return int(version)


def migrate(conn: sqlite3.Connection) -> int:
    """Bring ``conn``'s database up to ``SCHEMA_VERSION``; returns the version it had.

    The version is read again once the write lock is held, so two processes opening a fresh
    file at once migrate it once (the second finds it done).
    """
    version = _version(conn)
    if version == SCHEMA_VERSION:
        return version
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        version = _version(conn)
        for script in MIGRATIONS[version:]:
            for statement in script.split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return version
