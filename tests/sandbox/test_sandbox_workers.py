"""Processes inside a run: DataLoader workers, multiprocessing with fork and spawn, a private
/dev/shm, and every worker killed with its run. Real torch, real processes, both layers."""

from __future__ import annotations

import os
import textwrap

import pytest

from tutor.sandbox.agent import NO_NEW_PYTHON

pytestmark = pytest.mark.timeout(300)


def test_dataloader_with_two_workers(sandbox):
    code = textwrap.dedent(
        """
        from torch.utils.data import DataLoader, Dataset, get_worker_info

        class Squares(Dataset):
            def __len__(self):
                return 8
            def __getitem__(self, i):
                return torch.tensor([i * i, get_worker_info().id])

        batches = list(DataLoader(Squares(), batch_size=2, num_workers=2))
        print(torch.cat(batches)[:, 0].tolist())
        print(sorted({int(w) for b in batches for w in b[:, 1]}))
        """
    )
    result = sandbox.run(code, timeout=60)
    assert result.ok, result
    assert result.stdout.splitlines() == ["[0, 1, 4, 9, 16, 25, 36, 49]", "[0, 1]"]


def test_fork_pool_and_shared_memory(sandbox):
    code = textwrap.dedent(
        """
        import multiprocessing as mp
        from multiprocessing import shared_memory

        def cube(x):
            return x ** 3

        if __name__ == "__main__":
            with mp.get_context("fork").Pool(2) as pool:
                print(pool.map(cube, range(5)))
            block = shared_memory.SharedMemory(create=True, size=64, name="tutor_left_behind")
            block.buf[:5] = b"hello"
            print(bytes(block.buf[:5]).decode())
        """
    )
    result = sandbox.run(code, timeout=60)
    assert result.ok, result
    assert result.stdout.splitlines() == ["[0, 1, 8, 27, 64]", "hello"]
    seen = sandbox.run(
        "from multiprocessing import shared_memory\n"
        "try:\n    shared_memory.SharedMemory(name='tutor_left_behind')\n    print('found')\n"
        "except FileNotFoundError:\n    print('gone')\n",
        timeout=30,
    )
    assert seen.ok, seen
    assert seen.stdout.strip() == "gone"


def test_spawn_runs_learner_functions_or_says_why_not(sandbox):
    code = textwrap.dedent(
        """
        import multiprocessing as mp

        def double(x):
            return 2 * torch.tensor(x).item()

        if __name__ == "__main__":
            print("main once")
            with mp.get_context("spawn").Pool(1) as pool:
                print(pool.map(double, [1, 2, 3]))
        """
    )
    result = sandbox.run(code, timeout=180, memory_mb=2048)
    if result.ok:
        assert result.stdout.splitlines() == ["main once", "[2, 4, 6]"]
    else:  # the dropped uid cannot start this Python (installed under a private home)
        assert result.exception.type == "RuntimeError", result
        assert NO_NEW_PYTHON.split("{method}")[0] in result.exception.message
        assert "fork" in result.exception.message


def test_workers_are_killed_with_their_run(sandbox, leftovers):
    code = textwrap.dedent(
        """
        import multiprocessing as mp, time
        from torch.utils.data import DataLoader

        def forever():
            while True:
                time.sleep(0.05)

        mp.get_context("fork").Process(target=forever).start()
        it = iter(DataLoader(range(100), num_workers=2, persistent_workers=True))
        print(next(it).tolist(), flush=True)
        while True:
            time.sleep(0.05)
        """
    )
    result = sandbox.run(code, timeout=20)
    assert result.status.value == "timeout", result
    assert result.stdout.strip() == "[0]"
    assert leftovers(sandbox) == []


def test_dev_shm_is_writable_emptied_and_bounded(sandbox):
    fill = "bwrap" in sandbox.layers  # the host's /dev/shm is not ours to fill
    code = textwrap.dedent(
        f"""
        import os
        print(sorted(os.listdir("/dev/shm")) if {fill} else [])
        with open("/dev/shm/tutor-mark", "wb") as fh:
            fh.write(b"x")
        written = 0
        try:
            with open("/dev/shm/tutor-fill", "wb") as fh:
                for _ in range(300 if {fill} else 0):
                    fh.write(bytes(1 << 20))
                    written += 1
            print("wrote", written)
        except OSError as e:
            print(type(e).__name__, written)
        """
    )
    result = sandbox.run(code, timeout=60, file_mb=512)
    assert result.ok, result
    lines = result.stdout.splitlines()
    assert lines[0] == "[]"
    if fill:  # ENOSPC before 300 MB: the private /dev/shm holds at most 256 MiB
        assert lines[1].startswith("OSError"), result.stdout
        assert int(lines[1].split()[1]) <= 256
    after = sandbox.run("import os; print(sorted(os.listdir('/dev/shm')))", timeout=30)
    assert after.ok, after
    assert "tutor-mark" not in after.stdout and "tutor-fill" not in after.stdout
    assert not any(n.startswith("tutor-") for n in os.listdir("/dev/shm"))
