"""A run's memory limit holds for all of its processes together: forked children, a process
pool, DataLoader workers, a ``setsid`` grandchild, the two processes of a grading. Under both
containment layers and both ways of holding it (a memory cgroup per run, where the runtime can
make one; sampling the run's processes, everywhere). Real torch, real processes; nothing of a
stopped run is left."""

from __future__ import annotations

import asyncio
import os
import signal
import textwrap

import pytest

from tests.grading.conftest import refs
from tests.sandbox.conftest import find_leftovers, layer_params
from tutor.grading.engine import grade, plan
from tutor.sandbox import AsyncSandbox, Sandbox, memcg
from tutor.sandbox.containment import MEMORY_ENV
from tutor.sandbox.result import Status

MECHANISMS = {"cgroup": "memcg", "sample": "memwatch"}


def both_ways() -> list:
    """Each containment layer (bwrap skipped where it cannot run) with each mechanism."""
    return [
        pytest.param((layer.values[0], way), id=f"{layer.values[0]}-{way}", marks=layer.marks)
        for layer in layer_params()
        for way in MECHANISMS
    ]


@pytest.fixture(scope="module", params=both_ways())
def box(request):
    """A started sandbox per containment layer and memory mechanism (a mechanism this host
    cannot give is skipped: a memory cgroup needs root and a writable v1 hierarchy)."""
    layer, mechanism = request.param
    before = os.environ.get(MEMORY_ENV)
    os.environ[MEMORY_ENV] = mechanism
    try:
        sandbox = Sandbox(containment=layer)
        sandbox.start()
    finally:
        if before is None:
            os.environ.pop(MEMORY_ENV)
        else:
            os.environ[MEMORY_ENV] = before
    if MECHANISMS[mechanism] not in sandbox.layers:
        sandbox.close()
        pytest.skip(f"no {mechanism} mechanism here (layers: {sandbox.layers})")
    yield sandbox
    sandbox.close()


def run(box: Sandbox, code: str, memory_mb: int = 512, **limits):
    return box.run(code, timeout=60, memory_mb=memory_mb, **limits)


def held_together(result, memory_mb: int = 512) -> None:
    """The run was stopped for its memory, as several processes' together."""
    assert result.status is Status.memory, (result.status, result.reason, result.stderr[-800:])
    assert result.reason.startswith(f"used more than {memory_mb} MB together ("), result.reason
    assert int(result.reason.split("(")[1].split()[0]) >= 2, result.reason


#: a process that fills and keeps MB megabytes (every page touched)
FILL = """
def fill(mb):
    block = bytearray(mb << 20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    return block
"""

CHILDREN = (
    FILL
    + """
import os, sys, time
r, w = os.pipe()
go_r, go_w = os.pipe()
kids = []
for _ in range(KIDS):
    pid = os.fork()
    if pid == 0:
        block = fill(MB)
        os.write(w, b"x")
        os.read(go_r, 1)  # held until the parent lets go
        os._exit(0)
    kids.append(pid)
for _ in kids:
    os.read(r, 1)
time.sleep(2)  # every child holds its share at once, however long the forks took
os.write(go_w, b"x" * len(kids))
for pid in kids:
    os.waitpid(pid, 0)
print("held", KIDS * MB)
"""
)


def children(kids: int, mb: int) -> str:
    """CHILDREN with ``kids`` children of ``mb`` MB each."""
    return CHILDREN.replace("KIDS", str(kids)).replace("MB", str(mb))


def test_children_whose_shares_pass_the_limit_together_end_memory(box):
    result = run(box, children(4, 160))  # 640 MB under 512, 160 MB each
    held_together(result)
    assert "held" not in result.stdout
    assert find_leftovers(box) == []


def test_many_processes_each_well_under_the_limit_are_held_together(box):
    # each of 32 processes stays far under its own address-space limit (48 MB of 1024)
    code = children(32, 48)
    result = run(box, code, memory_mb=1024)
    held_together(result, 1024)
    assert find_leftovers(box) == []


def test_the_same_children_just_under_the_limit_pass(box):
    result = run(box, children(4, 110))  # 440 MB under 512
    assert result.ok, (result.status, result.reason, result.stderr[-800:])
    assert result.stdout.strip() == "held 440"


def test_copies_of_shared_pages_count_and_shared_pages_count_once(box):
    code = FILL + textwrap.dedent(
        """
        import os, time
        block = fill(200)
        r, w = os.pipe()
        kids = []
        for _ in range(3):
            pid = os.fork()
            if pid == 0:
                if WRITE:
                    for i in range(0, len(block), 4096):
                        block[i] = 2  # a copy of each page: 200 MB more per child
                else:
                    sum(block[::4096])  # reading shares the parent's pages
                os.write(w, b"x")
                time.sleep(2)
                os._exit(0)
            kids.append(pid)
        for _ in kids:
            os.read(r, 1)
        for pid in kids:
            os.waitpid(pid, 0)
        print("shared")
    """
    )
    read = run(box, code.replace("WRITE", "False"))
    assert read.ok and read.stdout.strip() == "shared", (read.reason, read.stderr[-800:])
    written = run(box, code.replace("WRITE", "True"))
    held_together(written)
    assert find_leftovers(box) == []


def test_a_process_pool_is_bounded(box):
    code = FILL + textwrap.dedent(
        """
        import multiprocessing, time
        def hold(i):
            block = fill(150)
            time.sleep(3)
            return len(block)
        with multiprocessing.get_context("fork").Pool(4) as pool:
            print(sum(pool.map(hold, range(4))))
    """
    )
    held_together(run(box, code))
    assert find_leftovers(box) == []


def test_dataloader_workers_are_bounded(box):
    code = FILL + textwrap.dedent(
        """
        import time
        from torch.utils.data import DataLoader, Dataset
        kept = []
        class Big(Dataset):
            def __len__(self):
                return 8
            def __getitem__(self, i):
                kept.append(fill(80))  # each worker keeps 80 MB per item it loads
                time.sleep(1.0)  # and all four hold two items a while before the end
                return torch.tensor(i)
        for batch in DataLoader(Big(), batch_size=1, num_workers=4):
            pass
        print("loaded")
    """
    )
    held_together(run(box, code))
    assert find_leftovers(box) == []


def test_a_setsid_grandchild_counts(box):
    code = FILL + textwrap.dedent(
        """
        import os, time
        mine = fill(300)
        if os.fork() == 0:
            if os.fork() == 0:
                os.setsid()  # a grandchild of its own session, its parent gone
                del mine  # (its own copy of the address space: its limit is its own too)
                theirs = fill(300)
                time.sleep(30)
                os._exit(0)
            os._exit(0)
        time.sleep(30)
    """
    )
    held_together(run(box, code))
    assert find_leftovers(box) == []


#: a learner's answer that computes right and forks helpers that hog memory
HOG = (
    FILL
    + """
import os, time
def double(x):
    return x * 2
for _ in range(3):
    if os.fork() == 0:
        block = fill(400)
        time.sleep(60)
        os._exit(0)
time.sleep(30)
"""
)


def test_a_grading_run_is_bounded_as_a_whole(box):
    trust = refs("trust.yaml")
    honest = grade(trust["double"], "def double(x):\n    return x * 2\n", 3, box)
    assert honest.correct, honest.feedback
    p = plan(trust["double"], HOG, 3)
    result = box.call(p.call.target, timeout=60, memory_mb=1024, **p.call.kwargs)
    held_together(result, 1024)  # the learner's process and its helpers, not the judge
    assert find_leftovers(box) == []
    graded = grade(trust["double"], HOG, 3, box)
    assert graded.status == "memory" and not graded.correct, graded
    assert "1024 MB" in graded.feedback
    assert find_leftovers(box) == []


async def test_no_run_cgroup_is_left_when_a_runtime_stops_or_is_killed_mid_run():
    directory = memcg.own_cgroup()
    if directory is None or not memcg.usable(directory):
        pytest.skip("no memory cgroups here (they need root and a writable v1 hierarchy)")

    def left(pid: int) -> list[str]:
        return [name for name in os.listdir(directory) if name.startswith(f"tutor-{pid}-")]

    for layer in [p.values[0] for p in layer_params() if not p.marks]:
        box = AsyncSandbox(containment=layer)
        await box.start()
        pid = box.runtime_pid
        assert pid is not None and "memcg" in box.layers
        assert (await box.run("print(1)")).ok
        await box.close()
        assert left(pid) == []
        box = AsyncSandbox(containment=layer)
        await box.start()
        pid = box.runtime_pid
        assert pid is not None
        running = asyncio.create_task(box.run("import time\ntime.sleep(30)", timeout=60))
        for _ in range(3000):  # until the run has its cgroup
            if left(pid):
                break
            await asyncio.sleep(0.01)
        os.killpg(pid, signal.SIGKILL)  # the runtime dies mid-run: its run's cgroup stays
        result = await running
        assert result.status is Status.crashed, result
        await box.close()
        assert left(pid) == []
