"""The pieces that hold a run's processes together to its memory limit, on their own: where
the memory cgroup is mounted, and what the sampler counts, on real processes forked here (this
test process stands in for the zygote: its pages are the ones children share)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from tutor.sandbox import memwatch
from tutor.sandbox.memcg import cgroup_dir

MB = 1 << 20

V1 = """12:pids:/
4:memory:/process_api/abc
0::/
"""
MOUNTS = """\
24 30 0:22 / /sys rw,nosuid - sysfs sysfs rw
33 24 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
34 24 0:29 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
40 24 0:35 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""


def test_the_memory_cgroup_is_found_under_its_mount():
    assert cgroup_dir(V1, MOUNTS) == "/sys/fs/cgroup/memory/process_api/abc"
    assert cgroup_dir("4:memory:/\n", MOUNTS) == "/sys/fs/cgroup/memory"
    joined = MOUNTS.replace("rw,memory", "rw,cpuset,memory")
    assert cgroup_dir("4:cpuset,memory:/a\n", joined) == "/sys/fs/cgroup/memory/a"


def test_a_mount_of_part_of_the_hierarchy_and_escaped_paths():
    # a container sees its own part of the hierarchy mounted (mount root /docker/x)
    part = "34 24 0:29 /docker/x /sys/fs/cgroup/my\\040memory rw - cgroup cgroup rw,memory\n"
    assert cgroup_dir("4:memory:/docker/x/run\n", part) == "/sys/fs/cgroup/my memory/run"
    assert cgroup_dir("4:memory:/docker/x\n", part) == "/sys/fs/cgroup/my memory"
    assert cgroup_dir("4:memory:/elsewhere\n", part) is None


def test_no_v1_memory_hierarchy_means_no_cgroup():
    assert cgroup_dir("0::/user.slice\n", MOUNTS) is None  # cgroup2 only
    assert cgroup_dir(V1, MOUNTS.replace("rw,memory", "rw,hugetlb")) is None
    assert cgroup_dir("", "") is None


def test_a_share_counts_anonymous_shmem_and_swap():
    fields = {b"Pss": 90, b"Pss_Anon": 50, b"Pss_Shmem": 7, b"SwapPss": 3, b"Rss": 200}
    assert memwatch.share(fields) == 60
    assert memwatch.share({b"Pss": 90, b"SwapPss": 3}) == 93  # a kernel without the split
    zygote = {b"Anonymous": 100, b"Pss_Anon": 40, b"Swap": 10, b"SwapPss": 4, b"Rss": 300}
    assert memwatch.lent(zygote) == 66
    assert memwatch.lent({b"Rss": 300, b"Pss": 120}) == 180


@contextmanager
def children(count: int, body) -> Iterator[list[int]]:
    """``count`` forked children that each run ``body()``, say so, and wait to be let go."""
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pids = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            try:
                kept = body()
                os.write(ready_w, b"x")
                os.read(go_r, 1)
                del kept
            finally:
                os._exit(0)
        pids.append(pid)
    try:
        for _ in pids:
            os.read(ready_r, 1)
        yield pids
    finally:
        os.write(go_w, b"x" * count)
        for pid in pids:
            os.waitpid(pid, 0)
        for fd in (ready_r, ready_w, go_r, go_w):
            os.close(fd)


def fill(size: int) -> bytearray:
    block = bytearray(size)
    for i in range(0, size, 4096):
        block[i] = 1
    return block


def near(measured: int, expected: int) -> bool:
    return expected - 2 * MB <= measured <= expected + 12 * MB


def test_new_pages_of_each_child_count():
    with children(3, lambda: fill(40 * MB)) as pids:
        held = memwatch.measure(os.getpid(), pids, None, 0)
    assert near(held, 120 * MB), held / MB


def test_pages_shared_with_the_parent_do_not_count_and_copies_of_them_do():
    block = fill(60 * MB)  # the parent's own (the zygote's, in the sandbox)

    def read() -> int:
        return sum(block[::4096])

    def write() -> None:
        for i in range(0, len(block), 4096):
            block[i] = 2

    with children(3, read) as pids:
        shared = memwatch.measure(os.getpid(), pids, None, 0)
    with children(3, write) as pids:
        copied = memwatch.measure(os.getpid(), pids, None, 0)
    assert near(shared, 0), shared / MB
    assert near(copied, 180 * MB), copied / MB


SAMPLER = """
import os, sys, time
from tutor.sandbox import memwatch
MB = 1 << 20
go_r, go_w = os.pipe()
ready_r, ready_w = os.pipe()
for _ in range(3):
    if os.fork() == 0:
        block = bytearray(40 * MB)
        for i in range(0, len(block), 4096):
            block[i] = 1
        os.write(ready_w, b"x")
        os.read(go_r, 1)
        os._exit(0)
for _ in range(3):
    os.read(ready_r, 1)
sampler = memwatch.Sampler(100 * MB)
time.sleep(sampler.due())
over = sampler.over()
calm = memwatch.Sampler(200 * MB)
time.sleep(calm.due())
print(over, calm.over())
os.write(go_w, b"xxx")
for _ in range(3):
    os.wait()
"""


def test_the_sampler_says_how_many_processes_held_too_much():
    # the sampler looks at every process below the one it runs in: a fresh interpreter, whose
    # pages are its own (a fork of this test process would share this process's pages, which
    # the count rightly leaves out, and how many there are depends on what ran here before)
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", SAMPLER], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["3", "None"]


def test_the_tree_finds_children_and_grandchildren():
    r, w = os.pipe()

    def parent() -> int:
        kid = os.fork()
        if kid == 0:
            os.read(r, 1)  # until the test lets it go
            os._exit(0)
        return kid

    with children(2, parent) as pids:
        found = set(memwatch.tree(os.getpid()))
        grandchildren = {g for p in pids for g in memwatch.tree(p)}
        assert set(pids) <= found and len(grandchildren) == 2 and grandchildren <= found
        os.write(w, b"xx")
    os.close(r)
    os.close(w)
