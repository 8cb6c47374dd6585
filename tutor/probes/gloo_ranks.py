"""Runtime side of the distributed drills: run a function on N real gloo ranks.

``launch(fn, world)`` forks ``world`` processes from the calling one, joins them into one gloo
process group over a file store on the run's private loopback, runs ``fn(rank, world)`` on each
and returns what each returned (JSON data). The chapter 8 drills call it from their ``setup``, so
their prompts and given code show one import instead of the forking itself.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch.distributed as dist

#: seconds a rank waits, after its collective timeout, for the others to finish
GRACE_S = 5.0


def launch(fn: Callable[[int, int], Any], world: int, timeout: float = 10.0) -> list[Any]:
    """``fn(rank, world)`` on each of ``world`` gloo ranks; their results in rank order. A rank
    whose ``fn`` raised returns ``{"error": "Type: first line of the message"}``; ``timeout`` is
    the group's collective timeout in seconds."""
    folder = Path(tempfile.mkdtemp(prefix="gloo-ranks-"))
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"  # the run's own loopback; no hostname lookup
    for rank in range(world):
        if os.fork() == 0:  # the rank: never returns into the caller
            try:
                _run_rank(fn, rank, world, timeout, folder)
            finally:
                os._exit(0)
    for _ in range(world):
        os.wait()
    return [json.loads((folder / str(rank)).read_text()) for rank in range(world)]


def _run_rank(
    fn: Callable[[int, int], Any], rank: int, world: int, timeout: float, folder: Path
) -> None:
    store = dist.FileStore(str(folder / "store"), world)  # type: ignore[attr-defined]
    dist.init_process_group(
        "gloo",
        store=store,
        rank=rank,
        world_size=world,
        timeout=datetime.timedelta(seconds=timeout),
    )
    try:
        result = fn(rank, world)
    except Exception as err:
        first = str(err).splitlines()[0][:200] if str(err).strip() else ""
        result = {"error": f"{type(err).__name__}: {first}"}
    part = folder / f"part{rank}"
    part.write_text(json.dumps(result))
    part.rename(folder / str(rank))
    # leave together: a rank that exits early closes connections the others may still use
    # (subgroups of a mesh connect after the work of a quick rank is done)
    deadline = time.monotonic() + timeout + GRACE_S
    done = [folder / str(r) for r in range(world)]
    while time.monotonic() < deadline and not all(p.exists() for p in done):
        time.sleep(0.01)
