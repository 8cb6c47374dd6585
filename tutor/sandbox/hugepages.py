"""Back the zygote's heap with transparent huge pages, so each fork copies a few hundred page
table entries instead of tens of thousands (measured: fork of a torch zygote ~18 ms -> ~2.5 ms
on a loaded machine). Copy-on-write in the child still copies 4 KiB at a time.

Linux only, best effort: nothing happens where THP or ``MADV_COLLAPSE`` (Linux 6.1) is missing,
and ``TUTOR_SANDBOX_THP=0`` turns it off. Runtime side, torch-free.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

MADV_HUGEPAGE = 14
MADV_COLLAPSE = 25
HUGE = 2 * 1024 * 1024


def thp_mode() -> str:
    """The system's THP setting: "always", "madvise", "never" or "" when unknown."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as fh:
            text = fh.read()
    except OSError:
        return ""
    return text[text.find("[") + 1 : text.find("]")] if "[" in text else ""


def collapse_heap() -> int:
    """Ask for huge pages on every private anonymous writable mapping of 2 MiB or more and
    collapse them now; returns how many mappings were collapsed."""
    if os.environ.get("TUTOR_SANDBOX_THP", "1") == "0" or thp_mode() == "never":
        return 0
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        with open("/proc/self/maps") as fh:
            lines = fh.readlines()
    except OSError:
        return 0
    done = 0
    for line in lines:
        fields = line.split()
        perms, path = fields[1], (fields[5] if len(fields) > 5 else "")
        if not perms.startswith("rw") or perms[3] != "p" or path not in ("", "[heap]"):
            continue
        start, end = (int(x, 16) for x in fields[0].split("-"))
        if end - start < HUGE:
            continue
        libc.madvise(start, end - start, MADV_HUGEPAGE)
        if libc.madvise(start, end - start, MADV_COLLAPSE) == 0:
            done += 1
    return done
