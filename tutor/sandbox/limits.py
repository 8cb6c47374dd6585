"""The limits one sandboxed run gets, and how they become rlimits in the child.

Torch-free: used by the supervisor (to build requests) and by the runtime (to apply them).
"""

from __future__ import annotations

import math
import os
import resource
from dataclasses import asdict, dataclass, replace
from typing import TypedDict

from tutor.sandbox.protocol import JsonObject

MB = 1024 * 1024


@dataclass
class Limits:
    """What one run may use. Sizes in MB or bytes as named; times in seconds."""

    timeout: float = 2.0
    """Wall-clock seconds; the CPU limit is derived from it (soft < hard so SIGXCPU comes first)."""
    memory_mb: int = 1024
    """Address space the run may add on top of what the runtime already maps."""
    output_limit: int = 65536
    """Bytes of stdout and, separately, of stderr before the run is stopped."""
    file_mb: int = 64
    """Largest file the run may write."""
    open_files: int = 256
    """Open file descriptors."""
    processes: int = 64
    """Processes and threads the run may have at once (RLIMIT_NPROC)."""
    threads: int = 1
    """Intra-op threads torch uses in the run."""
    result_limit: int = 32 * MB
    """Bytes of the JSON result a probe call may return."""
    profile: str = "default"
    """The named profile these limits were raised to (see ``PROFILES``)."""

    def to_json(self) -> JsonObject:
        """The limits as a JSON-ready dict (part of a run request)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: JsonObject) -> Limits:
        """Limits from a request, ignoring unknown keys."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    @property
    def cpu_seconds(self) -> int:
        """The soft CPU limit: whole seconds, at least one."""
        return max(1, math.ceil(self.timeout))


class MoreLimits(TypedDict, total=False):
    """The limits a run may set beyond its time, memory and output (``Limits``' other fields)."""

    file_mb: int
    open_files: int
    processes: int
    threads: int
    result_limit: int


class RunOptions(MoreLimits, total=False):
    """Every keyword of ``AsyncSandbox.run`` (its defaults are there), for the faces that pass
    them on unchanged."""

    timeout: float
    memory_mb: int
    output_limit: int
    profile: str | None


#: named limits profiles: the floors each raises the caller's limits to. ``default`` changes
#: nothing (runs stay tight); ``compile`` lets torch.compile (inductor, a C++ compiler) finish.
PROFILES: dict[str, dict[str, int | float]] = {
    "default": {},
    "compile": {"timeout": 180.0, "memory_mb": 4096, "file_mb": 1024, "open_files": 1024},
}


def with_profile(limits: Limits, name: str | None) -> Limits:
    """``limits`` raised to the floors of the profile ``name`` (None: "default").

    Raises ValueError naming the known profiles when ``name`` is not one of them.
    """
    name = name or "default"
    if name not in PROFILES:
        known = ", ".join(PROFILES)
        raise ValueError(f"unknown limits profile {name!r} (known: {known})")
    raised = {key: max(getattr(limits, key), floor) for key, floor in PROFILES[name].items()}
    return replace(limits, profile=name, **raised)


def vm_size() -> int:
    """This process's current virtual size in bytes (0 where /proc is missing)."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def apply_rlimits(limits: Limits, base_vm: int, nproc: int | None) -> None:
    """Set the rlimits of the calling process (the forked child, before dropping privileges).

    ``base_vm`` is the zygote's virtual size: the address-space limit is relative to it.
    ``nproc`` is the RLIMIT_NPROC value (None: leave it alone).
    """
    soft = limits.cpu_seconds
    _set(resource.RLIMIT_CPU, soft, soft + 1)
    if base_vm and hasattr(resource, "RLIMIT_AS"):
        cap = base_vm + limits.memory_mb * MB
        _set(resource.RLIMIT_AS, cap, cap)
    size = limits.file_mb * MB
    _set(resource.RLIMIT_FSIZE, size, size)
    _set(resource.RLIMIT_NOFILE, limits.open_files, limits.open_files)
    _set(resource.RLIMIT_CORE, 0, 0)
    if nproc is not None and hasattr(resource, "RLIMIT_NPROC"):
        _set(resource.RLIMIT_NPROC, nproc, nproc)


def _set(which: int, soft: int, hard: int) -> None:
    """Lower a limit; never raise it above the current hard limit."""
    _, cur_hard = resource.getrlimit(which)
    if cur_hard != resource.RLIM_INFINITY:
        hard = min(hard, cur_hard)
        soft = min(soft, hard)
    resource.setrlimit(which, (soft, hard))


def count_tasks(uid: int) -> int:
    """Tasks (threads included) visible in /proc that belong to ``uid``."""
    total = 0
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as fh:
                uid_seen = threads = None
                for line in fh:
                    if line.startswith(b"Uid:"):
                        uid_seen = int(line.split()[1])
                    elif line.startswith(b"Threads:"):
                        threads = int(line.split()[1])
                        break
        except (OSError, ValueError):
            continue
        if uid_seen == uid and threads:
            total += threads
    return total
