"""Warm sandbox runs against cold `python -c` runs of the same small torch snippet.

Side by side in one run: (a) the snippet through ``Sandbox.run`` 40 times (warm zygote, one
fork per run), (b) the same snippet as a fresh ``python -c`` 5 times (imports torch each time).
Prints both medians and the ratio, and the bare-fork floor for comparison; then, for each
runtime the project builds (xla), its warm p50 next to its own bare-fork floor. With
``--memory-ways`` it also runs the snippet warm under each way a run's memory is held (a memory
cgroup per run, sampling its processes), interleaved in rounds, and prints both p50s.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time

from tutor.sandbox import Sandbox
from tutor.sandbox.containment import MEMORY_ENV
from tutor.sandbox.runtimes import BUILT, built_python

SNIPPET = "x = torch.arange(12.0).reshape(3, 4)\nprint((x @ x.T).sum().item())\n"
COLD = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + SNIPPET


PHASES = {
    "prepare": "scratch dir, pipes, sweep marks (zygote, before fork)",
    "fork": "fork() in the zygote",
    "child_start": "fork() call to the child's first line (includes the fork)",
    "child_setup": "setsid, fds, rlimits, uid drop, threads, streams (COW faults)",
    "code": "the snippet itself",
    "exit_and_reap": "child exit, address-space teardown, reap",
    "cleanup": "kill leftovers, sweep, remove scratch (zygote)",
    "supervisor_and_pipes": "JSON lines, asyncio, thread hop (supervisor)",
}


def warm(box: Sandbox, n: int, phases: dict[str, list[float]] | None = None) -> list[float]:
    """Wall-clock milliseconds of ``n`` runs through the sandbox (phases: filled per run)."""
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        result = box.run(SNIPPET)
        times.append((time.perf_counter() - t0) * 1000)
        if phases is not None:
            for key, value in box.last_timings.items():
                phases.setdefault(key, []).append(value)
            inside = sum(
                box.last_timings.get(k, 0.0)
                for k in (
                    "prepare",
                    "child_start",
                    "child_setup",
                    "code",
                    "exit_and_reap",
                    "cleanup",
                )
            )
            phases.setdefault("supervisor_and_pipes", []).append(times[-1] - inside)
        assert result.ok and result.stdout.strip() == "1134.0", result
    return times


def cold(n: int) -> list[float]:
    """Wall-clock milliseconds of ``n`` fresh interpreters running the snippet."""
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", COLD],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            check=True,
        )
        times.append((time.perf_counter() - t0) * 1000)
        assert done.stdout.strip() == "1134.0", done
    return times


def bare_fork(n: int, python: str = sys.executable) -> list[float]:
    """Milliseconds to fork a torch-importing process of ``python`` and reap a child that exits
    at once."""
    code = (
        "import os, time, statistics, torch\n"
        "ts = []\n"
        f"for _ in range({n}):\n"
        "    t0 = time.perf_counter(); pid = os.fork()\n"
        "    if pid == 0: os._exit(0)\n"
        "    os.waitpid(pid, 0); ts.append((time.perf_counter() - t0) * 1000)\n"
        "print(' '.join(f'{t:.3f}' for t in ts))\n"
    )
    out = subprocess.run(
        [python, "-c", code],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=True,
    ).stdout
    return [float(t) for t in out.split()]


@contextlib.contextmanager
def held_by(way: str, containment: str | None):
    """A started sandbox whose runs' memory is held ``way`` ("cgroup" or "sample")."""
    before = os.environ.get(MEMORY_ENV)
    os.environ[MEMORY_ENV] = way
    try:
        box = Sandbox(containment=containment)
        box.start()
    finally:
        os.environ.pop(MEMORY_ENV)
        if before is not None:
            os.environ[MEMORY_ENV] = before
    try:
        yield box
    finally:
        box.close()


def memory_ways(n: int, containment: str | None) -> None:
    """Warm p50 under each memory mechanism, in interleaved rounds of ``n // 4`` runs."""
    with held_by("cgroup", containment) as cg, held_by("sample", containment) as sm:
        times: dict[str, list[float]] = {"memcg": [], "memwatch": []}
        boxes = {name: box for box in (cg, sm) for name in times if name in box.layers}
        for box in boxes.values():
            warm(box, 3)
        for _ in range(4):
            for name, box in boxes.items():
                times[name] += warm(box, max(1, n // 4))
    for name, found in times.items():
        if found:
            print(f"memory {name:8s} warm p50 {statistics.median(found):6.1f} ms (n={len(found)})")
        else:
            print(f"memory {name:8s} not available here")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", type=int, default=40)
    parser.add_argument("--cold", type=int, default=5)
    parser.add_argument("--containment", default=None, help="auto, bwrap or rlimits")
    parser.add_argument(
        "--memory-ways", action="store_true", help="also compare the memory mechanisms"
    )
    args = parser.parse_args()
    with Sandbox(containment=args.containment) as box:
        t0 = time.perf_counter()
        box.start()
        start_ms = (time.perf_counter() - t0) * 1000
        warm(box, 3)  # first runs touch pages the later ones share
        phases: dict[str, list[float]] = {}
        warm_ms = warm(box, args.warm, phases)
        layers = box.layers
    cold_ms = cold(args.cold)
    fork_ms = bare_fork(40)
    w, c, f = statistics.median(warm_ms), statistics.median(cold_ms), statistics.median(fork_ms)
    q = statistics.quantiles(warm_ms, n=10)
    print(f"containment      {', '.join(layers)}  (cpus: {os.cpu_count()})")
    print(f"runtime start    {start_ms:8.1f} ms  (once per session)")
    print(f"warm p50         {w:8.1f} ms  (p10 {q[0]:.1f}, p90 {q[-1]:.1f}; n={len(warm_ms)})")
    print(f"cold median      {c:8.1f} ms  (python -c, n={len(cold_ms)})")
    print(f"ratio            {c / w:8.1f} x  faster warm")
    print(
        f"bare fork floor  {f:8.1f} ms  (fork+exit+wait of a torch process; warm is {w / f:.1f}x)"
    )
    print("where a warm run's time goes (medians, ms):")
    for key, label in PHASES.items():
        if key in phases:
            print(f"  {statistics.median(phases[key]):6.2f}  {key:21s} {label}")
    if args.memory_ways:
        memory_ways(args.warm, args.containment)
    for name in BUILT:
        python = built_python(name)
        if python is None:
            print(f"runtime {name:7s}  not built (run `{BUILT[name][1]}`)")
            continue
        with Sandbox(runtime=name, containment=args.containment) as other:
            other.start()
            warm(other, 3)
            other_ms = statistics.median(warm(other, args.warm))
        floor = statistics.median(bare_fork(40, python))
        print(
            f"runtime {name:7s}  warm p50 {other_ms:.1f} ms, its own bare fork floor {floor:.1f} ms"
            f" (warm is {other_ms / floor:.1f}x)"
        )


if __name__ == "__main__":
    main()
