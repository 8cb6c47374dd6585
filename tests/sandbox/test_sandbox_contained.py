"""Runs are contained from each other and from memory they don't own, under both layers:
no SysV IPC, POSIX message queues or memfd (memory the limit would not count, objects that
outlive a run), an IPC namespace per run where the runtime may make one, and no new user
namespaces. Real processes, real torch, real system calls."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tutor.sandbox.containment import missing_layers

#: what every hostile program here prints when it got what it tried for (a test failure)
HELD = "HELD 2048 MB"

SYSV_2GB = """
import ctypes, os
libc = ctypes.CDLL("libc.so.6", use_errno=True)
libc.shmat.restype = ctypes.c_void_p
held = 0
for _ in range(8):  # 8 x 256 MB segments, each attached, filled and detached
    sid = libc.shmget(0, 256 << 20, 0o1600)
    if sid < 0:
        err = ctypes.get_errno()
        raise OSError(err, "shmget: " + os.strerror(err))
    addr = libc.shmat(sid, None, 0)
    ctypes.memset(addr, 1, 256 << 20)
    libc.shmdt(ctypes.c_void_p(addr))
    held += 256
print("HELD", held, "MB")
"""

MEMFD_2GB = """
import os
import shutil
import tempfile
from pathlib import Path
chunk = b"x" * (16 << 20)
fds = []
for _ in range(8):  # 8 memfds of 256 MB, written (not mapped: no address space used)
    fd = os.memfd_create("hold")
    for _ in range(16):
        os.write(fd, chunk)
    fds.append(fd)
print("HELD", 256 * len(fds), "MB")
"""


@pytest.mark.parametrize("code", [SYSV_2GB, MEMFD_2GB], ids=["sysv", "memfd"])
def test_shared_memory_cannot_hold_memory_past_the_limit(sandbox, code):
    result = sandbox.run(code, timeout=20, memory_mb=1024)
    assert HELD not in result.stdout
    assert result.status.value == "error", (result.status, result.reason)
    assert result.reason.startswith("raised PermissionError: [Errno 1]"), result.reason
    assert "seccomp" in result.containment


REFUSED_CALLS = """
import ctypes, ctypes.util, os
libc = ctypes.CDLL("libc.so.6", use_errno=True)
rt = ctypes.CDLL(ctypes.util.find_library("rt") or "librt.so.1", use_errno=True)
print("shmget", libc.shmget(0x5eed, 4096, 0o1600), ctypes.get_errno())
print("msgget", libc.msgget(0x5eed, 0o1600), ctypes.get_errno())
print("semget", libc.semget(0x5eed, 1, 0o1600), ctypes.get_errno())
print("mq_open", rt.mq_open(b"/tutor-mq", os.O_CREAT | os.O_RDWR, 0o600, None), ctypes.get_errno())
print("ns", os.readlink("/proc/self/ns/ipc"))
"""

LEFT_OVER = """
import os
import shutil
import tempfile
from pathlib import Path
for name in ("shm", "msg", "sem"):
    with open(f"/proc/sysvipc/{name}") as fh:
        print(name, len(fh.read().splitlines()) - 1)
print("mqueues", sorted(os.listdir("/dev/mqueue")) if os.path.isdir("/dev/mqueue") else [])
"""


def test_no_ipc_object_can_be_made_or_seen_by_a_later_run(sandbox, as_root):
    first = sandbox.run(REFUSED_CALLS, timeout=10)
    assert first.ok, first.reason
    lines = dict(line.split(" ", 1) for line in first.stdout.splitlines())
    for call in ("shmget", "msgget", "semget", "mq_open"):
        assert lines[call] == "-1 1", (call, lines[call])  # -1, EPERM
    if as_root:  # the run has an IPC namespace of its own, not the machine's
        assert "ipcns" in first.containment
        assert lines["ns"] != os.readlink("/proc/self/ns/ipc")
    later = sandbox.run(LEFT_OVER, timeout=10)
    assert later.ok, later.reason
    assert later.stdout.splitlines()[:3] == ["shm 0", "msg 0", "sem 0"]


USERNS = """
import ctypes, subprocess
libc = ctypes.CDLL("libc.so.6", use_errno=True)
print("unshare", libc.unshare(0x10000000), ctypes.get_errno())
done = subprocess.run(["unshare", "--user", "--map-root-user", "id", "-u"],
                      capture_output=True, text=True)
print("tool", done.returncode, done.stdout.strip() or "-")
import os, threading
box = []
worker = threading.Thread(target=lambda: box.append(os.getpid()))
worker.start(); worker.join()
print("thread", bool(box))
pid = os.fork()
if pid == 0:
    os._exit(7)
print("fork", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"""


def test_learner_code_cannot_become_root_in_a_new_user_namespace(sandbox):
    result = sandbox.run(USERNS, timeout=20)
    assert result.ok, (result.reason, result.stderr)
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert lines["unshare"] == "-1 1"  # EPERM
    assert lines["tool"].split()[0] != "0" and "0" not in lines["tool"].split()[1:]
    assert lines["thread"] == "True" and lines["fork"] == "7"  # threads and fork still work


def test_doctor_names_the_filter_and_the_namespace_when_missing():
    lines = missing_layers(["bwrap", "rlimits", "uid"])
    assert any(line.startswith("no system-call filter") and "uid 0" in line for line in lines)
    assert any(line.startswith("no IPC namespace per run") for line in lines)
    assert not any("filter" in line for line in missing_layers(["rlimits", "seccomp", "ipcns"]))


def test_doctor_names_every_missing_protection_and_what_it_means():
    lines = missing_layers([])
    starts = [
        "no bubblewrap",
        "no network isolation",
        "no separate uid",
        "no rlimits",
        "no system-call filter",
        "no memory cgroup per run",
        "no IPC namespace per run",
    ]
    assert [line.split(":")[0].split(" (")[0] for line in lines] == starts
    assert all(len(line.split(":", 1)[1].split()) >= 5 for line in lines)  # and what it means


def test_doctor_selftest_checks_the_filter(sandbox):
    from tutor.sandbox.selftest import check_names, run_check

    async def run(code, **limits):
        return sandbox.run(code, **limits)

    for name in ("memory outside the limit is refused", "no new user namespaces"):
        assert name in check_names(local=True)
        check = asyncio.run(run_check(name, run, True))
        assert check.ok, check


def test_doctor_names_a_standard_library_the_runs_cannot_read():
    base = Path(tempfile.mkdtemp())
    base.chmod(0o755)  # searchable by others: only "home" below decides
    private = base / "home"
    (private / "lib").mkdir(parents=True)
    private.chmod(0o700)
    layers = ["rlimits", "uid", "seccomp", "ipcns"]
    lines = missing_layers(layers, stdlib=str(private / "lib"))
    line = next(line for line in lines if line.startswith("no readable standard library"))
    assert str(private / "lib") in line and "import wave" in line
    private.chmod(0o755)
    assert not any(
        "standard library" in line for line in missing_layers(layers, str(private / "lib"))
    )
    private.chmod(0o700)
    assert not any("standard library" in line for line in missing_layers(["bwrap", *layers]))
    shutil.rmtree(base)


def test_an_unloaded_standard_module_imports_or_doctor_says_why(sandbox):
    # under every layer a run imports a standard module the runtime never loaded, unless
    # the doctor names the reason (the rlimits-only layer with a private Python)
    result = sandbox.run("import wave\nprint(wave.__name__)", timeout=20)
    named = any("standard library" in line for line in missing_layers(sandbox.layers))
    assert result.ok or named, (result.reason, result.stderr)
    if not result.ok:
        assert "ModuleNotFoundError" in result.reason
