"""System calls a run may not make, and a fresh IPC namespace per run.

Runtime side, torch-free. Memory a run holds through SysV shared memory, SysV message queues,
POSIX message queues or a memfd is not part of its address space, so ``RLIMIT_AS`` does not
count it, and SysV objects outlive the process that made them. A new user namespace would make
learner code uid 0, with every capability, inside it. So the zygote loads a seccomp filter
(built by libseccomp, through ``pyseccomp``) that refuses those calls with ``EPERM``, and every
run inherits it. Where the runtime may (``CAP_SYS_ADMIN``: root, with or without bubblewrap),
each run also starts in an IPC namespace of its own, so nothing a run leaves there is visible
to the next.
"""

from __future__ import annotations

import ctypes
import errno
import os
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyseccomp import SyscallFilter  # no type information: pyseccomp ships none

#: syscalls refused outright: memory outside RLIMIT_AS, and IPC objects that outlive a run
REFUSED = ("shmget", "msgget", "semget", "mq_open", "memfd_create", "memfd_secret")
CLONE_NEWUSER = 0x10000000
CLONE_NEWIPC = 0x08000000
CAP_SYS_ADMIN = 21
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2
#: what a refused call says (errno), as learner code sees it
REFUSAL = errno.EPERM


class _Fprog(ctypes.Structure):
    """``struct sock_fprog``: a BPF program's length (in instructions) and address."""

    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


def build_filter() -> bytes | str:
    """The filter every run loads before learner code runs, as a BPF program, or a string
    saying why there is none (pyseccomp or libseccomp missing). Built once in the zygote by
    libseccomp; each child only hands the compiled program to the kernel (``load``)."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError, RuntimeError) as exc:
        return f"no system-call filter: pyseccomp/libseccomp unavailable ({exc})"
    try:
        rules = seccomp.SyscallFilter(seccomp.ALLOW)
        for name in REFUSED:
            _refuse(seccomp, rules, name)
        userns = seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)
        for name in ("unshare", "clone"):
            rules.add_rule(seccomp.ERRNO(REFUSAL), name, userns)
        # clone3 passes its flags in memory, where a filter cannot read them: it says "not
        # implemented" and the C library falls back to clone, whose flags the rule above reads
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
        return _export(rules)
    except (OSError, RuntimeError, ValueError) as exc:
        return f"no system-call filter: {exc}"


def _export(rules: SyscallFilter) -> bytes:
    """The compiled BPF program of ``rules``."""
    import tempfile

    with tempfile.TemporaryFile() as fh:
        rules.export_bpf(fh)
        fh.seek(0)
        return fh.read()


def _refuse(seccomp: ModuleType, rules: SyscallFilter, name: str) -> None:
    try:
        rules.add_rule(seccomp.ERRNO(REFUSAL), name)
    except (OSError, RuntimeError, ValueError):
        if name != "memfd_secret":  # absent from older libseccomp tables; rare kernels have it
            raise


def install_filter(libc: ctypes.CDLL) -> bool:
    """Build the filter and load it into this process (the zygote, before its first fork), so
    every run inherits it at no cost per run; True when it is in force. The zygote itself never
    needs what the filter refuses, and it sets ``no_new_privs``, which its runs set anyway."""
    program = build_filter()
    if not isinstance(program, bytes):
        return False
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    try:
        load(program, libc)
    except OSError:
        return False
    return True


def load(program: bytes, libc: ctypes.CDLL) -> None:
    """Install ``program`` (from ``build_filter``) in the calling process, for good.

    The process must already have ``no_new_privs`` set. Raises OSError when the kernel refuses.
    """
    prog = _Fprog(len(program) // 8, program)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        err = ctypes_errno()
        raise OSError(err, f"seccomp: {os.strerror(err)}")


def can_unshare_ipc() -> bool:
    """Whether this process may create IPC namespaces (``CAP_SYS_ADMIN`` is effective)."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"CapEff:"):
                    return bool(int(line.split()[1], 16) >> CAP_SYS_ADMIN & 1)
    except (OSError, ValueError):
        pass
    return False


def unshare_ipc(libc: ctypes.CDLL) -> None:
    """Move the calling process into a new IPC namespace; raises OSError when it cannot."""
    if libc.unshare(CLONE_NEWIPC) != 0:
        err = ctypes_errno()
        raise OSError(err, f"unshare(CLONE_NEWIPC): {os.strerror(err)}")


def ctypes_errno() -> int:
    """The errno of the last ctypes call made with ``use_errno``."""
    return ctypes.get_errno()
