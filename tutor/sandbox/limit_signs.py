"""Which of a run's limits its error shows was crossed, when the run's own ending cannot say.

A run that crosses a limit itself ends in a way ``tutor.sandbox.ending`` reads (SIGXCPU, the
exit code of a file too large, ``MemoryError``). A program the run starts inherits the same
limits, but when *it* crosses one the run only sees that program fail: torch.compile raises
``InductorError`` whose text ends with gcc's "File size limit exceeded signal terminated program
cc1plus". The run's own calls can fail the same quiet way ("Too many open files", "can't start
new thread"). ``limit_crossed`` reads those signs in the error's text and names the limit, with
the profile that raises it. It only explains: the status stays the one the exit code gave.

Torch-free; used by the runtime when it words a run's reason.
"""

from __future__ import annotations

import re

from tutor.sandbox.limits import PROFILES, Limits

#: what the C library says for each signal a limit sends (as gcc and shells print it), the
#: signal's name (as Python's subprocess says it), and the errno of a call a limit refused
_FILE_SIGNS = re.compile(r"File size limit exceeded|File too large|\[Errno 27\]|SIGXFSZ")
_CPU_SIGNS = re.compile(r"CPU time limit exceeded|SIGXCPU")
_MEMORY_SIGNS = re.compile(r"virtual memory exhausted|out of memory allocating")
_FILES_SIGNS = re.compile(r"Too many open files|\[Errno 24\]")
_THREAD_SIGNS = re.compile(r"can't start new thread")
_FORK_SIGNS = re.compile(r"Resource temporarily unavailable|\[Errno 11\]")
_FORKING = re.compile(r"fork|spawn|Popen|clone|Process|Thread|Pool|subprocess|os\.system")
#: the program a limit stopped: gcc's "... signal terminated program cc1plus", Python's
#: "Command '['dd', ...]' died with <Signals.SIGXFSZ: 25>"
_PROGRAM = re.compile(r"signal terminated program (\S+)|Command '\[?'?([^\s',\]]+)")


def limit_crossed(text: str, limits: Limits) -> str | None:
    """What limit ``text`` (an error's message and traceback) shows was crossed, in words, or
    None when it shows none."""
    who = _who(text)
    if _FILE_SIGNS.search(text):
        return _said(
            f"{who} wrote a file larger than {limits.file_mb} MB, the file-size limit",
            "file_mb",
            limits,
        )
    if _CPU_SIGNS.search(text):
        return _said(
            f"{who} used more than {limits.cpu_seconds} s of CPU, the CPU limit", "timeout", limits
        )
    if _MEMORY_SIGNS.search(text):
        return _said(
            f"{who} ran out of memory under the {limits.memory_mb} MB limit", "memory_mb", limits
        )
    if _FILES_SIGNS.search(text):
        return _said(
            f"{who} had more than {limits.open_files} files open, the open-files limit",
            "open_files",
            limits,
        )
    if _THREAD_SIGNS.search(text) or (_FORK_SIGNS.search(text) and _FORKING.search(text)):
        return f"{who} reached {limits.processes} processes and threads at once, the process limit"
    return None


def _who(text: str) -> str:
    """ "cc1plus, a program the run started," when a compiler says which program failed;
    else "the run"."""
    found = _PROGRAM.search(text)
    program = (found.group(1) or found.group(2)) if found else None
    return f"{program} (a program the run started)" if program else "the run"


def _said(words: str, key: str, limits: Limits) -> str:
    """``words``, plus the limits profile that raises ``key`` above this run's value."""
    current = getattr(limits, key)
    for name, floors in PROFILES.items():
        floor = floors.get(key)
        if floor is not None and floor > current and name != limits.profile:
            return f"{words} (the '{name}' limits allow {_amount(key, floor)})"
    return words


def _amount(key: str, value: float) -> str:
    units = {"timeout": " s", "memory_mb": " MB", "file_mb": " MB", "open_files": " files"}
    number = f"{value:g}" if isinstance(value, float) else str(value)
    return number + units.get(key, "")
