"""Reading content files (packs, lessons) without trusting them.

A pack folder may hold anything: a FIFO that never delivers a byte, a symlink to ``/dev/zero``,
a file of many gigabytes. Only regular files are read, and only up to ``MAX_FILE_BYTES``: the
file is opened without blocking and checked with ``fstat`` on the open descriptor (so what is
checked is what is read), then read with a bound.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tutor.content.problems import PackError, Problem

MAX_FILE_BYTES = 4 * 1024 * 1024
"""The largest content file read (the biggest shipped pack is well under 100 kB)."""

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _refuse(file: str, message: str) -> PackError:
    return PackError([Problem(file, 1, 1, "file", message)])


def read_bytes(path: Path, file: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else raises PackError
    naming ``file``. Never blocks on a FIFO or device and never reads more than ``limit + 1``
    bytes."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _refuse(file, f"cannot read: {exc.strerror}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(file, f"not read: it is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise _refuse(file, f"not read: {info.st_size:,} bytes, more than {limit:,}")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise _refuse(file, f"not read: more than {limit:,} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise _refuse(file, f"cannot read: {exc.strerror}") from exc
    finally:
        os.close(fd)


def read_text(path: Path, file: str, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a content file (a leading BOM dropped); see ``read_bytes``."""
    data = read_bytes(path, file, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _refuse(file, f"not UTF-8 text ({exc.reason})") from exc
