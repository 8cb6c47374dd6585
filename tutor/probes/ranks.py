"""Runtime side of the rank timeline: fork ``world`` processes, join them into one gloo process
group over a file store on the run's private loopback, run one collective, and write down what
each rank held and when it was busy or waiting. One rank may be slow; one may skip the
collective, and then the others wait until the group's timeout raises."""

from __future__ import annotations

import datetime
import json
import os
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

from tutor.probes.data_ranks import (
    RankEvent,
    Ranks,
    check,
)

#: seconds the parent waits for the ranks beyond their own timeout and delay
GRACE_S = 20.0


def starting_tensor(op: str, rank: int, world: int, value: float) -> torch.Tensor:
    """What rank ``rank`` holds before ``op``: one number, or for reduce_scatter a row of
    ``world`` numbers (value, 2*value, ...) whose column k ends up, summed, on rank k."""
    if op == "reduce_scatter":
        return torch.tensor([value * (k + 1) for k in range(world)])
    return torch.tensor([value])


def collective(op: str, t: torch.Tensor, world: int) -> torch.Tensor:
    """Run ``op`` on this rank's tensor; the tensor the rank holds afterwards."""
    if op == "all_reduce":
        dist.all_reduce(t)  # in place: every rank gets the sum
        return t
    if op == "all_gather":
        out = [torch.zeros_like(t) for _ in range(world)]
        dist.all_gather(out, t)
        return torch.cat(out)
    if op == "broadcast":
        dist.broadcast(t, src=0)  # in place: everyone gets rank 0's tensor
        return t
    mine = torch.zeros(1)
    dist.reduce_scatter_single(mine, t)
    return mine


def run_rank(rank: int, options: dict[str, Any], folder: Path, t0: float) -> None:
    """The body of one rank process: join, work, collective; results to ``rank{rank}.json``."""
    world, op = options["world"], options["op"]
    events: list[dict[str, Any]] = []

    def mark(name: str, start: float) -> None:
        events.append(
            {
                "rank": rank,
                "event": name,
                "start_ms": (start - t0) * 1e3,
                "end_ms": (time.perf_counter() - t0) * 1e3,
            }
        )

    t = starting_tensor(op, rank, world, options["values"][rank])
    before, error = t.tolist(), None
    start = time.perf_counter()
    store = dist.FileStore(str(folder / "store"), world)  # type: ignore[attr-defined]
    timeout = datetime.timedelta(seconds=options["timeout_s"])
    dist.init_process_group("gloo", store=store, rank=rank, world_size=world, timeout=timeout)
    mark("join", start)
    start = time.perf_counter()
    if rank == options["slow_rank"]:
        time.sleep(options["delay_ms"] / 1e3)
    mark("work", start)
    start = time.perf_counter()
    if rank == options["skip_rank"]:
        # never calls the collective, but stays alive until the others have given up, so they
        # see a hang that times out, not a peer that went away
        wait_for_files(folder, [r for r in range(world) if r != rank], options)
        mark("skipped", start)
        after = t.tolist()
    else:
        try:
            after = collective(op, t, world).tolist()
        except RuntimeError as err:
            error, after = first_line(str(err)), t.tolist()
        mark(op, start)
    result = {"before": before, "after": after, "events": events, "error": error}
    (folder / f"rank{rank}.json").write_text(json.dumps(result))
    # leave only once every rank is done: an early exit would turn a peer's timeout into a
    # "connection closed" error
    wait_for_files(folder, list(range(world)), options)


def wait_for_files(folder: Path, ranks: list[int], options: dict[str, Any]) -> None:
    """Wait (boundedly) until each of ``ranks`` has written its result."""
    paths = [folder / f"rank{r}.json" for r in ranks]
    give_up = time.perf_counter() + options["timeout_s"] + options["delay_ms"] / 1e3 + GRACE_S / 2
    while not all(p.exists() for p in paths) and time.perf_counter() < give_up:
        time.sleep(0.01)


def first_line(message: str) -> str:
    """gloo's error without its source path: ``Timed out waiting 2000ms for recv ...``."""
    line = message.strip().splitlines()[0] if message.strip() else "failed"
    return line.split("] ", 1)[1] if line.startswith("[") and "] " in line else line


def start_ranks(options: dict[str, Any], folder: Path) -> list[int]:
    """Fork one process per rank; their pids."""
    t0 = options["t0"]
    pids = []
    for rank in range(options["world"]):
        pid = os.fork()
        if pid == 0:  # the rank: never returns into the caller
            code = 0
            try:
                run_rank(rank, options, folder, t0)
            except BaseException as err:  # the parent reports it from the missing result
                (folder / f"rank{rank}.err").write_text(f"{type(err).__name__}: {err}")
                code = 1
            finally:
                os._exit(code)
        pids.append(pid)
    return pids


def wait_all(pids: list[int], deadline: float) -> None:
    """Wait for every rank until ``deadline`` (perf_counter), then kill the rest."""
    left = set(pids)
    while left and time.perf_counter() < deadline:
        for pid in list(left):
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                left.discard(pid)
        time.sleep(0.01)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def read_rank(folder: Path, rank: int) -> dict[str, Any]:
    """One rank's result, or a stand-in that says why there is none."""
    path = folder / f"rank{rank}.json"
    if path.exists():
        result: dict[str, Any] = json.loads(path.read_text())
        return result
    err = folder / f"rank{rank}.err"
    why = err.read_text() if err.exists() else "the rank was stopped before it finished"
    return {"before": [], "after": [], "events": [], "error": why}


def ranks(**given: Any) -> Ranks:
    """Run ``op`` on ``world`` real gloo ranks (rank r starting from ``values[r]``, by default
    r + 1); ``slow_rank`` works ``delay_ms`` longer first; ``skip_rank`` never calls it. The
    options and their defaults are ``data_ranks.check``'s."""
    options = check(**given)
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"  # the run's own loopback; no hostname lookup
    options["t0"] = time.perf_counter()
    deadline = options["t0"] + options["timeout_s"] + options["delay_ms"] / 1e3 + GRACE_S
    with tempfile.TemporaryDirectory(prefix="ranks-") as name:
        folder = Path(name)
        pids = start_ranks(options, folder)
        wait_all(pids, deadline)
        results = [read_rank(folder, r) for r in range(options["world"])]
    return assemble(options, results)


def assemble(options: dict[str, Any], results: list[dict[str, Any]]) -> Ranks:
    """The per-rank results as one ``Ranks``, with who waited for whom worked out."""
    op, world = options["op"], options["world"]
    timeline = [RankEvent(**e) for r in results for e in r["events"]]
    inside = {e.rank: e for e in timeline if e.event == op}
    last = max(inside, key=lambda r: inside[r].start_ms) if inside else None
    data = Ranks(
        world=world,
        op=op,
        values=options["values"],
        before=[r["before"] for r in results],
        after=[r["after"] for r in results],
        timeline=sorted(timeline, key=lambda e: (e.rank, e.start_ms)),
        errors=[r["error"] for r in results],
        waited_ms=[
            inside[r].end_ms - inside[r].start_ms if r in inside else None for r in range(world)
        ],
        last_to_arrive=last if options["skip_rank"] is None else None,
        slow_rank=options["slow_rank"],
        delay_ms=options["delay_ms"],
        skip_rank=options["skip_rank"],
        timeout_s=options["timeout_s"],
        torch_version=torch.__version__,
    )
    data.explanation = explain(data)
    return data


SEMANTICS = {
    "all_reduce": "every rank now holds the sum of all ranks' values, written in place",
    "all_gather": "every rank now holds every rank's value, in rank order",
    "broadcast": "every rank now holds rank 0's value, written in place",
    "reduce_scatter": "rank k now holds the sum of column k of all the ranks' rows",
}


def explain(data: Ranks) -> str:
    """One plain paragraph about what happened."""
    others = [r for r in range(data.world) if r != data.skip_rank]
    if data.skip_rank is not None:
        return explain_skip(data, others)
    failed = [r for r, e in enumerate(data.errors) if e]
    if failed:
        ranks = "rank" if len(failed) == 1 else "ranks"
        return f"The collective failed on {ranks} {failed}: {data.errors[failed[0]]}"
    text = f"{data.op}: {SEMANTICS[data.op]}."
    if data.last_to_arrive is not None:
        text += (
            f" Rank {data.last_to_arrive} arrived last; the others waited inside {data.op} until "
            "it came, because a collective finishes on no rank until every rank has called it."
        )
    return text


def ranks_list(ranks: list[int]) -> str:
    """``[0, 2]`` -> ``"Ranks 0, 2"``; ``[1]`` -> ``"Rank 1"``."""
    return ("Ranks " if len(ranks) > 1 else "Rank ") + ", ".join(map(str, ranks))


def explain_skip(data: Ranks, others: list[int]) -> str:
    """What a skipped collective did to the ranks that did call it."""
    timed_out = [r for r in others if data.errors[r]]
    returned = [r for r in others if not data.errors[r]]
    text = f"Rank {data.skip_rank} never called {data.op}."
    if timed_out:
        # the first rank to give up tears down its connections, so a peer may read "connection
        # closed" instead of its own timeout: quote a timeout where there is one
        quoted = next(
            (data.errors[r] for r in timed_out if "Timed out" in (data.errors[r] or "")),
            data.errors[timed_out[0]],
        )
        text += (
            f" {ranks_list(timed_out)} waited inside it for a partner that never came, until "
            f"the group's {data.timeout_s:g} s timeout raised ({quoted})."
        )
    if returned:
        text += (
            f" {ranks_list(returned)} got what {'they' if len(returned) > 1 else 'it'} needed "
            "from the ranks that did call it and returned, unaware that anything was wrong."
        )
    partial = [r for r in timed_out if data.after[r] != data.before[r]]
    if partial:
        were = "were" if len(partial) > 1 else "was"
        text += f" {ranks_list(partial)} {were} left holding a half-finished exchange."
    return text + (
        " Without a timeout a real job hangs here forever: every rank must call the same "
        "collectives in the same order."
    )
