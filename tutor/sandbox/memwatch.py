"""Sum the memory of all of a run's processes, where the runtime cannot give a run a memory
cgroup (``memcg``): the watch asks ``Sampler.over`` every few milliseconds and stops the run
when the sum passes its limit. Runtime side, torch-free; it reads /proc only, so the zygote
stays single-threaded.

Which processes: every descendant of the zygote. The zygote is a child subreaper and forks
nothing else during a run, so a worker, a rank or a ``setsid`` grandchild whose parent died are
all found by walking ``/proc/PID/task/TID/children`` down from the zygote.

What is counted: the pages a run added, not the ones it shares with the zygote. A forked run
maps all of the zygote's pages (torch's own, hundreds of MB) copy-on-write; counting them in
each process would charge a run with four workers for five copies of torch. The precise count
(``measure``) takes each run process's proportional share (PSS) of anonymous and shared memory
and of swap, from ``/proc/PID/smaps_rollup``: a page shared by k processes counts 1/k in each.
Summed over the zygote and the run, that is every page they map counted once; minus the
zygote's own pages, what remains is what the run added: its new pages, its copy-on-write copies
of the zygote's pages, and pages its processes share among themselves, each once. The zygote's
share of its own pages is in its smaps_rollup too (``Anonymous`` minus ``Pss_Anon``: the part
of its pages attributed to the run's processes), so the sum needs no baseline.

Cost: a smaps_rollup walks the process's page tables (about 1.6 ms for a forked torch process
on an idle machine, 15-40 ms on a loaded one), so the watch looks cheaply every ``TICK`` s and
counts precisely only when it must. The cheap look sums each process's resident anonymous,
shmem and swap counters (``/proc/PID/status``, 0.02 ms): every page the run holds is mapped by
one of its processes, so that sum bounds what it holds from above (it counts the zygote's pages
once per process). While it is within the limit nothing more is needed: a run with one process,
or a few small workers, is never counted precisely. Past it, the precise count is taken when the
last one plus what the counters grew by since passes the limit, and at least every ``PRECISE`` s
(copies of the zygote's pages do not move the counters); a look takes at most a tenth of the
time until the next. A run that ends within ``TICK`` is never looked at (a single process is
held by its own address-space limit meanwhile).

A process whose maps the zygote may not read (a non-root runtime: the judge of a grading run
is not dumpable, by design, and a run may make its own processes so) counts by its counters:
in full (an upper bound) for a run's process; for the judge, its counters less the zygote's
pages it maps, with its share of them added back, which estimates its PSS (the judge is the
tutor's own code, not the learner's).
"""

from __future__ import annotations

import os
import time

#: seconds from the fork to the first look, and between cheap looks
TICK = 0.02
#: seconds between precise counts, at least
PRECISE = 0.1
#: a look takes at most 1/SHARE of the time until the next one
SHARE = 10
KB = 1024


def tree(root: int) -> list[int]:
    """Every living process below ``root``, found through each thread's ``children`` file
    (falls back to scanning /proc where the kernel has no such file)."""
    if not os.path.exists(f"/proc/{root}/task/{root}/children"):
        from tutor.sandbox.reaper import descendants

        return descendants(root)
    found: list[int] = []
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                    kids = [int(k) for k in fh.read().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def _fields(path: str, names: tuple[bytes, ...]) -> dict[bytes, int]:
    """The ``Name: N kB`` lines of a /proc file whose names are in ``names``, in bytes."""
    out: dict[bytes, int] = {}
    with open(path, "rb") as fh:
        for line in fh:
            name, _, rest = line.partition(b":")
            if name in names:
                out[name] = int(rest.split()[0]) * KB
    return out


COUNTERS = (b"RssAnon", b"RssShmem", b"VmSwap")
ROLLUP = (b"Rss", b"Pss", b"Pss_Anon", b"Pss_Shmem", b"Anonymous", b"Swap", b"SwapPss")


def counters(pid: int) -> int:
    """Resident anonymous and shmem memory plus swap of a process (0 when it is gone)."""
    try:
        return sum(_fields(f"/proc/{pid}/status", COUNTERS).values())
    except (OSError, ValueError, IndexError):
        return 0


def rollup(pid: int) -> dict[bytes, int] | None:
    """A process's smaps_rollup sums ({} when it is gone; None when it may not be read)."""
    try:
        return _fields(f"/proc/{pid}/smaps_rollup", ROLLUP)
    except PermissionError:
        return None
    except (OSError, ValueError, IndexError):
        return {}


def share(fields: dict[bytes, int]) -> int:
    """A run process's share of anonymous, shmem and swapped memory (PSS); the whole PSS on a
    kernel without the split fields (before Linux 5.9)."""
    if b"Pss_Anon" not in fields:
        return fields.get(b"Pss", 0) + fields.get(b"SwapPss", 0)
    return fields[b"Pss_Anon"] + fields.get(b"Pss_Shmem", 0) + fields.get(b"SwapPss", 0)


def lent(fields: dict[bytes, int]) -> int:
    """The part of the zygote's own pages that the run's processes' shares hold."""
    if b"Pss_Anon" not in fields:
        return max(0, fields.get(b"Rss", 0) - fields.get(b"Pss", 0))
    anon = fields.get(b"Anonymous", 0) - fields[b"Pss_Anon"]
    swap = fields.get(b"Swap", 0) - fields.get(b"SwapPss", 0)
    return max(0, anon) + max(0, swap)


def measure(zygote: int, pids: list[int], judge: int | None, base: int) -> int:
    """Bytes the run's processes ``pids`` hold beyond the zygote's pages (module docstring);
    ``base``: the zygote's counters when the run started."""
    own = rollup(zygote) or {}
    total = -lent(own)
    for pid in pids:
        fields = rollup(pid)
        if fields is not None:
            total += share(fields)
        elif pid == judge:
            mapped = len(pids) + 1  # the zygote and the run's processes map its pages
            total += max(0, counters(pid) - base) + base // mapped
        else:
            total += counters(pid)
    return max(0, total)


class Sampler:
    """Looks at one run's memory when the watch asks (``due``, ``over``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.zygote = os.getpid()
        self.judge: int | None = None
        """The judge of a grading run (the tutor's code, counted by estimate if unreadable)."""
        self.base = counters(self.zygote)
        now = time.monotonic()
        self.next_look = now + TICK
        self.next_precise = now
        self.held = 0
        """Bytes the last precise count found."""
        self.cheap_then = 0
        self.processes = 0

    event = -1
    """No descriptor tells of the limit: the watch looks on a clock (``due``)."""

    def due(self) -> float:
        """Seconds until the next look."""
        return max(0.0, self.next_look - time.monotonic())

    def over(self) -> int | None:
        """Look now; the number of processes when together they hold more than the limit."""
        start = time.monotonic()
        pids = tree(self.zygote)
        self.processes = len(pids)
        cheap = sum(counters(pid) for pid in pids)
        if cheap <= self.limit:  # every page the run holds is in some process's counters
            self.held = self.cheap_then = cheap
        elif start >= self.next_precise or self.held + cheap - self.cheap_then > self.limit:
            self.held = measure(self.zygote, pids, self.judge, self.base)
            self.cheap_then = cheap
            took = time.monotonic() - start
            self.next_precise = start + max(PRECISE, SHARE * took)
        took = time.monotonic() - start
        self.next_look = start + max(TICK, SHARE * took)
        return self.processes if self.held > self.limit and pids else None

    def after(self) -> int | None:
        """Nothing to ask once the run is reaped (its processes are gone)."""
        return None
