"""A memory cgroup per run (cgroup v1): the kernel holds all of a run's processes together to
the run's memory limit.

Runtime side, torch-free. The launcher finds the memory cgroup it was started in
(``own_cgroup``), checks that it may make cgroups there (``usable``: root, a writable v1 memory
hierarchy) and opens that directory; the zygote inherits the descriptor (through bubblewrap
too: nothing is mounted in the sandbox, so runs cannot even see the cgroup files, and /sys stays
absent there as before). Before each fork the zygote makes ``tutor-<launcher pid>-<n>`` in it
with the run's limit (``RunGroup``); the run's first process (and a grading run's second) moves
itself in by writing 0 to its ``tasks`` file while still root and before it closes the
descriptor (``join``), and everything it forks after that is born inside. The zygote itself
never enters it, so a run at its limit can never stall the process that watches it.

Writing a single thread's id to ``tasks`` (the forked child is single-threaded) skips the
global lock that moving a whole process through ``cgroup.procs`` takes, which waits for an RCU
grace period (5-15 ms measured here against 0.26 ms).

The kernel charges a run's cgroup for each page a run process touches first after joining,
copy-on-write copies of the zygote's pages included, and for the files it writes to tmpfs; the
pages it still shares with the zygote stay charged to the zygote. At the limit the kernel
reclaims page cache; when that is not enough, the process that asked for a page waits (the
cgroup's OOM killer is off) and an eventfd (``memory.oom_control``) tells the watch, which stops
the whole run. A charge made inside a system call (a write to tmpfs) fails with ENOMEM instead.
"""

from __future__ import annotations

import contextlib
import os
import re
import time

#: the files a run's cgroup must have to be used
NEEDED = ("tasks", "memory.limit_in_bytes", "memory.oom_control", "cgroup.event_control")
#: name of a runtime's run cgroups: tutor-<launcher pid>-<n>
NAME = re.compile(r"^tutor-(\d+)-\d+$")


def own_cgroup() -> str | None:
    """The directory of the v1 memory cgroup this process is in (None where there is none)."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            cgroups = fh.read()
        with open("/proc/self/mountinfo", encoding="utf-8") as fh:
            mounts = fh.read()
    except OSError:
        return None
    return cgroup_dir(cgroups, mounts)


def cgroup_dir(cgroups: str, mountinfo: str) -> str | None:
    """Where the memory cgroup named in ``cgroups`` (a /proc/PID/cgroup) is mounted, from
    ``mountinfo`` (a /proc/PID/mountinfo): None without a v1 memory hierarchy (cgroup2 alone
    has a single line, ``0::/PATH``) or when the cgroup lies outside its mount."""
    path = None
    for line in cgroups.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and "memory" in parts[1].split(","):
            path = parts[2]
    if path is None:
        return None
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] != "cgroup":
            continue
        if "memory" not in tail[2].split(","):
            continue
        root, mount = _unescape(fields[3]), _unescape(fields[4])
        if root == "/":
            return os.path.normpath(mount + "/" + path.lstrip("/"))
        if path == root or path.startswith(root + "/"):
            return os.path.normpath(mount + "/" + path[len(root) :].lstrip("/"))
        return None
    return None


def _unescape(text: str) -> str:
    """A mountinfo field with its octal escapes (``\\040`` for a space) decoded."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), text)


def usable(directory: str | None) -> bool:
    """Whether runs can get a memory cgroup of their own under ``directory``: it exists, this
    process is root, and a cgroup made there takes a limit (tried, then removed)."""
    if directory is None or os.geteuid() != 0 or not os.path.isdir(directory):
        return False
    probe = os.path.join(directory, f"tutor-{os.getpid()}-probe")
    try:
        os.mkdir(probe)
    except OSError:
        return False
    try:
        if not all(os.path.exists(os.path.join(probe, name)) for name in NEEDED):
            return False
        _write(os.path.join(probe, "memory.limit_in_bytes"), str(64 << 20))
        return True
    except OSError:
        return False
    finally:
        _remove(probe, None)


def choose(requested: str | None) -> str | None:
    """Where runs' memory cgroups go (this process's own memory cgroup), or None when runs are
    held by sampling instead: ``requested`` "sample", or no usable cgroup here ("auto" and
    "cgroup" alike: a runtime always starts). Cgroups that runtimes gone before left are
    removed on the way."""
    if (requested or "auto").lower() == "sample":
        return None
    directory = own_cgroup()
    if directory is None or not usable(directory):
        return None
    sweep(directory)
    return directory


def sweep(directory: str | int, launcher: int | None = None) -> None:
    """Remove the run cgroups runtimes left in ``directory`` (a path or an open descriptor):
    those of ``launcher`` (a runtime that has stopped), or with None those of every runtime
    whose launcher is gone. A cgroup that still has processes cannot be removed and stays."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    at = directory if isinstance(directory, int) else None
    for name in names:
        match = NAME.match(name)
        if match is None:
            continue
        pid = int(match.group(1))
        if (launcher is None and not os.path.exists(f"/proc/{pid}")) or pid == launcher:
            if at is None:
                _remove(os.path.join(str(directory), name), None)
            else:
                _remove(name, at)


class RunGroup:
    """One run's memory cgroup ``name`` in the directory open as ``at``, with an eventfd that
    becomes readable when a run process meets the limit."""

    def __init__(self, at: int, name: str, limit: int) -> None:
        os.mkdir(name, 0o755, dir_fd=at)
        self.at, self.name = at, name
        self.event = -1
        try:
            self._write("memory.limit_in_bytes", str(limit))
            with contextlib.suppress(FileNotFoundError):  # memory + swap, where it is counted:
                self._write("memory.memsw.limit_in_bytes", str(limit))  # no way out by swap
            # at the limit the kernel kills nothing: the process that needs a page waits and
            # the eventfd below fires; the watch then stops the whole run (every process of
            # it is still there to count, and the judge of a grading is not picked first)
            self._write("memory.oom_control", "1")
            self.event = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            oom = os.open(f"{name}/memory.oom_control", os.O_RDONLY | os.O_CLOEXEC, dir_fd=at)
            try:
                self._write("cgroup.event_control", f"{self.event} {oom}")
            finally:
                os.close(oom)
        except OSError:
            self.remove()
            raise

    def _write(self, file: str, text: str) -> None:
        fd = os.open(f"{self.name}/{file}", os.O_WRONLY | os.O_CLOEXEC, dir_fd=self.at)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)

    def _read(self, file: str) -> bytes:
        fd = os.open(f"{self.name}/{file}", os.O_RDONLY | os.O_CLOEXEC, dir_fd=self.at)
        try:
            return os.read(fd, 1 << 16)
        finally:
            os.close(fd)

    def due(self) -> float | None:
        """The kernel watches the limit: nothing to look at on a clock."""
        return None

    def over(self) -> int | None:
        """Called when ``event`` is readable: a run process met the limit and waits. How many
        processes held the memory (all of them are still there: the kernel kills none)."""
        with contextlib.suppress(OSError):
            os.read(self.event, 8)
        return max(1, self.processes())

    def after(self) -> int | None:
        """Once the run is reaped: as ``over``, if a process of it still waits at the limit
        (the eventfd may not have been read before the run's first process ended)."""
        return max(1, self.processes()) if self.oom_state().get(b"under_oom") else None

    def oom_state(self) -> dict[bytes, int]:
        """``memory.oom_control``: ``oom_kill_disable``, ``under_oom``, ``oom_kill``."""
        try:
            fields = self._read("memory.oom_control").split()
        except OSError:
            return {}
        return {name: int(value) for name, value in zip(fields[::2], fields[1::2], strict=False)}

    def processes(self) -> int:
        """How many processes are in the cgroup now."""
        try:
            return len(self._read("cgroup.procs").split())
        except OSError:
            return 0

    def remove(self) -> None:
        """Close the eventfd and remove the cgroup (its processes have been reaped)."""
        if self.event >= 0:
            os.close(self.event)
            self.event = -1
        _remove(self.name, self.at)


class Cgroups:
    """The run cgroups of one runtime, made in the directory open as ``at`` and named after
    ``launcher`` (the host pid of the process that started the runtime)."""

    def __init__(self, at: int, launcher: int) -> None:
        os.set_inheritable(at, False)  # inherited through bubblewrap; no further
        self.at = at
        self.launcher = launcher
        self.made = 0

    def make(self, limit: int) -> RunGroup | None:
        """A fresh cgroup holding a run to ``limit`` bytes (None if one cannot be made now)."""
        self.made += 1
        try:
            return RunGroup(self.at, f"tutor-{self.launcher}-{self.made}", limit)
        except OSError:
            return None

    def remove_all(self) -> None:
        """Remove every run cgroup of this runtime that is left."""
        sweep(self.at, self.launcher)


def join(at: int, name: str) -> None:
    """Move the calling thread (the whole process, while it has one thread) into the cgroup
    ``name`` of the directory open as ``at``."""
    fd = os.open(f"{name}/tasks", os.O_WRONLY | os.O_CLOEXEC, dir_fd=at)
    try:
        os.write(fd, b"0")
    finally:
        os.close(fd)


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _remove(path: str, at: int | None) -> None:
    """rmdir a cgroup (``path`` relative to the directory open as ``at``, if given), retrying
    briefly while its last processes finish exiting."""
    for _ in range(100):
        try:
            os.rmdir(path, dir_fd=at)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.002)
