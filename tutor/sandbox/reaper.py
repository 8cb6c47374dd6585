"""Leave nothing behind: kill every process a run started and remove the files it made.

Runtime side, torch-free. The zygote is a child subreaper (Linux), so whatever a run forks,
even a grandchild that called ``setsid`` and lost its parent, is re-parented to the zygote and
shows up here as one of its descendants.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import shutil
import signal
import stat
import subprocess
import time
from collections.abc import Callable

PR_SET_CHILD_SUBREAPER = 36
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1

_libc: ctypes.CDLL | None = None


def libc() -> ctypes.CDLL:
    """The C library, loaded once, with ``errno`` kept for ``ctypes.get_errno``."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    return _libc


def prctl(option: int, value: int) -> bool:
    """Call prctl(2); False where it is unavailable or fails."""
    if not os.path.exists("/proc/self"):
        return False
    return int(libc().prctl(option, value, 0, 0, 0)) == 0


def unshare_network() -> bool:
    """Move this process into a new, empty network namespace (root only); True on success."""
    CLONE_NEWNET = 0x40000000
    if not prctl(PR_SET_DUMPABLE, 0):  # also loads libc; the zygote wants this anyway
        return False
    if int(libc().unshare(CLONE_NEWNET)) != 0:
        return False
    loopback_up()
    return True


def loopback_up() -> bool:
    """Bring up ``lo`` in this network namespace (a new one starts with it down), so runs can
    use the private loopback (gloo ranks, local servers); True on success."""
    import fcntl
    import socket
    import struct

    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            req = struct.pack("16sh14x", b"lo", 0)
            flags = struct.unpack("16sh14x", fcntl.ioctl(sock, SIOCGIFFLAGS, req))[1]
            fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sh14x", b"lo", flags | IFF_UP))
    except OSError:
        return False
    return True


def clear_inheritable_caps() -> bool:
    """Empty this process's inheritable (and so ambient) capability sets; keep the rest.

    bubblewrap hands the capabilities it keeps to the zygote as inheritable and ambient too;
    runs must not carry them even as inheritable bits.
    """
    if not prctl(PR_SET_DUMPABLE, 0):  # loads libc
        return False

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [
            ("effective", ctypes.c_uint32),
            ("permitted", ctypes.c_uint32),
            ("inheritable", ctypes.c_uint32),
        ]

    header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (Data * 2)()
    if int(libc().capget(ctypes.byref(header), data)) != 0:
        return False
    for half in data:
        half.inheritable = 0
    return int(libc().capset(ctypes.byref(header), data)) == 0


def _parents() -> dict[int, int]:
    """pid -> parent pid for every process visible in /proc."""
    table: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        fields = data[data.rfind(b")") + 2 :].split()
        table[int(name)] = int(fields[1])
    return table


def descendants(root: int) -> list[int]:
    """Every living process below ``root`` in the process tree."""
    children: dict[int, list[int]] = {}
    for pid, ppid in _parents().items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def reap_all() -> bool:
    """Reap finished children; True when children remain (alive or not yet reaped)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def kill_everything_below(me: int | None = None, rounds: int = 2000) -> None:
    """SIGKILL every descendant of this process until none is left (a fork storm included)."""
    me = me or os.getpid()
    for _ in range(rounds):
        if not reap_all():
            return
        pids = descendants(me) if os.path.exists("/proc/self") else []
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if not pids:
            time.sleep(0.001)  # zombies being re-parented to us; reap on the next round


def kill_uid(uid: int) -> int:
    """SIGKILL every visible process owned by ``uid`` (a dedicated sandbox uid); returns how many."""
    hit = 0
    for _ in range(200):
        pids = []
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    if os.stat(f"/proc/{name}").st_uid == uid and _real_uid(name) == uid:
                        pids.append(int(name))
                except OSError:
                    continue
        if not pids:
            return hit
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                hit += 1
            except OSError:
                pass
        time.sleep(0.005)
    return hit


def _real_uid(name: str) -> int | None:
    try:
        with open(f"/proc/{name}/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def shared_dirs() -> list[str]:
    """World-writable directories where a run could leave files outside its scratch dir."""
    found = []
    for path in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/dev/mqueue"):
        real = os.path.realpath(path)
        if real not in found and os.path.isdir(real):
            found.append(real)
    return found


def writable_tree(dirs: list[str]) -> dict[str, int]:
    """The world-writable directories in and (one level) below ``dirs`` -> their mtime."""
    marks: dict[str, int] = {}
    for top in dirs:
        try:
            marks[top] = os.stat(top).st_mtime_ns
            with os.scandir(top) as it:
                for entry in it:
                    st = entry.stat(follow_symlinks=False)
                    if stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_IWOTH:
                        marks[entry.path] = st.st_mtime_ns
        except OSError:
            continue
    return marks


def sweep(before: dict[str, int], owner: int | None, keep: set[str]) -> None:
    """Remove what a run left in shared directories that changed since ``before``.

    With ``owner`` (a dedicated uid) only entries owned by it go; with None (a private /tmp
    inside bubblewrap) every entry goes except those in ``keep``.
    """
    for path, mtime in before.items():
        try:
            if os.stat(path).st_mtime_ns == mtime:
                continue
            with os.scandir(path) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            if entry.path in keep or entry.path in before:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if owner is not None and st.st_uid != owner:
                continue
            remove(entry.path)


def remove(path: str) -> None:
    """Delete a file or a whole tree, fixing permissions a run may have taken away."""
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, onerror=_fix_and_retry)
        else:
            os.unlink(path)
    except (OSError, RecursionError):
        pass
    if os.path.lexists(path):  # too deep for rmtree's recursion, or it kept failing
        subprocess.run(
            ["rm", "-rf", "--one-file-system", "--", path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )


def _fix_and_retry(func: Callable[[str], object], path: str, _exc: object) -> None:
    try:
        os.chmod(os.path.dirname(path), 0o700)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
            shutil.rmtree(path, ignore_errors=True)
        else:
            func(path)
    except OSError:
        pass
