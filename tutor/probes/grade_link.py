"""Runtime side: the one channel between the judge's process and the learner's.

A grading call's learner process is forked by the runtime beside the judge (the zygote's fork
is the cheap one; ``tutor.sandbox.zygote``), or by the judge itself with :func:`spawn` (more
seeds in one call). Either way every descriptor in it is closed but stdin (``/dev/null``),
stdout, stderr and one socket (fd 3, where a run has its result pipe), the text of the drill's
reference and ``assert`` code is overwritten in its copy of memory, and then the learner's side
runs (:func:`serve_learner`). The judge is not dumpable (a judge forked by the runtime never
becomes dumpable; one that spawns makes itself so), so the learner's process (the same uid) can
neither ptrace it nor read its memory.

Messages are length-prefixed JSON (:func:`send`, :func:`recv`); nothing is ever unpickled.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import json
import os
import socket
import sys
import traceback
from collections.abc import Callable
from typing import NoReturn

MAX_MESSAGE = 64 * 1024 * 1024
CHANNEL_FD = 3
#: exit codes of the learner's process when its side could not run or report
LEARNER_FAILED = 113
PR_SET_DUMPABLE = 4
_ASCII_HEADER = sys.getsizeof("") - 1
_COMPACT_HEADER = sys.getsizeof(chr(233) * 2) - 3


class Gone(Exception):
    """The other side closed the channel (it exited, crashed or closed the descriptor)."""


class TooLarge(ValueError):
    """A message longer than ``MAX_MESSAGE``."""


def send(sock: socket.socket, message: object) -> None:
    """One message: a 4-byte big-endian length, then JSON."""
    data = json.dumps(message, separators=(",", ":")).encode()
    if len(data) > MAX_MESSAGE:
        raise TooLarge(f"a message of {len(data)} bytes")
    sock.sendall(len(data).to_bytes(4, "big") + data)


def _exact(sock: socket.socket, n: int) -> bytes:
    chunks, left = [], n
    while left:
        try:
            chunk = sock.recv(min(left, 1 << 20))
        except OSError as exc:
            raise Gone(str(exc)) from None
        if not chunk:
            raise Gone("the channel closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def recv(sock: socket.socket) -> object:
    """The next message (raises Gone at end of stream, TooLarge, or ValueError on bad JSON)."""
    n = int.from_bytes(_exact(sock, 4), "big")
    if n > MAX_MESSAGE:
        raise TooLarge(f"a message of {n} bytes")
    return json.loads(_exact(sock, n))


def scrub(texts: list[str]) -> None:
    """Overwrite the characters of these strings in this process's memory with NULs.

    Called in the learner's process only, on its copy-on-write memory: the reference and
    ``assert`` code it inherited from the judge can no longer be read from any frame or object.
    Strings shorter than two characters are shared singletons and are left alone.
    """
    for text in texts:
        if type(text) is not str or len(text) < 2:
            continue
        top = ord(max(text))
        kind = 1 if top < 0x100 else 2 if top < 0x10000 else 4
        header = _ASCII_HEADER if top < 0x80 else _COMPACT_HEADER
        ctypes.memset(id(text) + header, 0, len(text) * kind)


def not_dumpable() -> bool:
    """prctl(PR_SET_DUMPABLE, 0): no ptrace, no /proc/PID/mem for a same-uid process."""
    try:
        return bool(_libc().prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


@functools.cache
def _libc() -> ctypes.CDLL:
    """The C library alone (a lookup in ``CDLL(None)`` searches torch's symbols too: ms)."""
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def spawn(
    side: Callable[[socket.socket], None], secrets: list[str], keep: list[str]
) -> tuple[int, socket.socket]:
    """Fork the learner's process running ``side(channel)``; return its pid and our end.

    ``secrets`` are wiped from the learner's memory, except texts equal to one in ``keep``
    (what the learner's side needs, e.g. the answer when the reference itself is checked).
    """
    reap_finished()
    ours, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:  # the learner's process: never returns
        try:
            ours.close()
            os.dup2(theirs.fileno(), CHANNEL_FD)  # replaces the judge's result pipe
            theirs.close()
            os.closerange(CHANNEL_FD + 1, 65536)
        except BaseException:  # noqa: BLE001
            os._exit(LEARNER_FAILED)
        serve_learner(side, secrets, keep)
    theirs.close()
    not_dumpable()
    _FORKED.append(pid)
    return pid, ours


def serve_learner(
    side: Callable[[socket.socket], None], secrets: list[str], keep: list[str]
) -> NoReturn:
    """Run the learner's side on the channel at ``CHANNEL_FD`` and exit; never returns.

    The body of a learner's process, whoever forked it: the judge (:func:`spawn`) or the
    runtime, beside the judge (``tutor.probes.grade_code.learner_process``)."""
    exit_now = os._exit  # learner code may replace os._exit; this reference stays
    code = LEARNER_FAILED
    try:
        scrub([s for s in secrets if s not in keep])
        side(socket.socket(fileno=CHANNEL_FD))
        code = 0
    except OSError:  # the judge closed the channel: it has what it needs
        pass
    except BaseException:  # noqa: BLE001 - report and leave; the judge gives the verdict
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode()[-2000:])
    finally:
        exit_now(code)


#: learner processes this process forked and has not reaped yet
_FORKED: list[int] = []


def reap_finished() -> None:
    """Reap the learner processes forked here that have ended (they are let go without a wait
    once the judge has their results)."""
    for pid in list(_FORKED):
        try:
            done = os.waitpid(pid, os.WNOHANG)[0]
        except ChildProcessError:
            done = pid
        if done:
            _FORKED.remove(pid)


def in_child(work: Callable[[], object]) -> object:
    """``work()`` run in a forked child, its JSON-able result sent back over a socket.

    For a process that must stay fork-safe: work that starts threads (an XLA device's PJRT
    client) leaves them in the child only, so this process can still fork learners after it.
    Raises ``Gone`` when the child ends without a result."""
    ours, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:  # never returns
        exit_now = os._exit
        code = LEARNER_FAILED
        try:
            ours.close()
            send(theirs, work())
            code = 0
        except BaseException:  # noqa: BLE001 - the parent reports the missing result
            with contextlib.suppress(BaseException):
                os.write(2, traceback.format_exc().encode()[-2000:])
        finally:
            with contextlib.suppress(BaseException):
                sys.stdout.flush()
                sys.stderr.flush()
            exit_now(code)
    theirs.close()
    try:
        return recv(ours)
    finally:
        ours.close()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
