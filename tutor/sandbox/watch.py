"""Follow one forked run: pump its stdout, stderr and result pipes within the limits, watch the
control channel for a kill, enforce the wall-clock deadline, and reap it. Runtime side, torch-free.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import time
from typing import Protocol

from tutor.sandbox.ending import Ending
from tutor.sandbox.limits import Limits
from tutor.sandbox.protocol import JsonObject


class Control(Protocol):
    """What a watch needs of its runtime's control channel (the zygote fits): the descriptor
    requests arrive on, the queue they are parsed into, and the flag that ends the runtime."""

    ctl_in: int
    queue: list[JsonObject]
    exiting: bool

    def accept(self, data: bytes) -> None:
        """Parse control bytes into ``queue``."""


class RunMemory(Protocol):
    """What holds a run's processes together to its memory limit (``memcg.RunGroup``,
    ``memwatch.Sampler``): a descriptor that becomes readable when the run may be over it, or
    a clock to look on."""

    event: int
    """Readable when the run may be over its limit (-1: none)."""

    def due(self) -> float | None:
        """Seconds until the next look (None: no looking on a clock)."""

    def over(self) -> int | None:
        """Look now: how many processes held the memory, when the run is over its limit."""

    def after(self) -> int | None:
        """The same, asked once the run has been reaped."""


class Watch:
    """The pipes of one child and what came through them, within the limits."""

    def __init__(self, limits: Limits, memory: RunMemory | None = None) -> None:
        self.limits = limits
        self.memory = memory
        self.holders = 0
        """How many processes held the memory, when the run was stopped for it."""
        self.buffers = {"stdout": bytearray(), "stderr": bytearray(), "result": bytearray()}
        self.caps = {
            "stdout": limits.output_limit,
            "stderr": limits.output_limit,
            "result": limits.result_limit,
        }
        self.fds: dict[str, int] = {}
        self.pid = 0
        self.reaped = False
        self.stopped_for: str | None = None
        self.peer = 0
        self.peer_status = -1

    def open(self) -> tuple[int, int, int]:
        """Create the pipes; return the write ends for the child."""
        ends = []
        for name in ("stdout", "stderr", "result"):
            r, w = os.pipe()
            os.set_blocking(r, False)
            self.fds[name] = r
            ends.append(w)
        self._child_ends = ends
        return ends[0], ends[1], ends[2]

    def started(self, pid: int) -> None:
        self.pid = pid
        self.t0 = time.monotonic()
        for fd in self._child_ends:
            os.close(fd)

    def companion(self, pid: int, status_fd: int) -> None:
        """Also follow a learner's process forked beside the run: when it ends, reap it and
        write its wait status (4 bytes) on ``status_fd`` for the run to read."""
        self.peer, self.peer_status = pid, status_fd

    def _peer_ended(self) -> bool:
        """Reap the companion if it ended and pass its status on; True once it is done."""
        try:
            pid, status = os.waitpid(self.peer, os.WNOHANG)
        except ChildProcessError:
            pid, status = self.peer, 0
        if not pid:
            return False
        with contextlib.suppress(OSError):
            os.write(self.peer_status, status.to_bytes(4, "little", signed=True))
        self.close_peer()
        return True

    def close_peer(self) -> None:
        """Close the companion's status pipe (its reader then sees that no status comes)."""
        if self.peer_status >= 0:
            with contextlib.suppress(OSError):
                os.close(self.peer_status)
            self.peer_status = -1

    def stop(self, why: str) -> None:
        """Kill the child's whole session now; remember the first reason."""
        if self.stopped_for is None:
            self.stopped_for = why
        if self.reaped:
            return
        for kill in (os.killpg, os.kill):
            with contextlib.suppress(OSError):
                kill(self.pid, signal.SIGKILL)
        if self.peer and self.peer_status >= 0:
            with contextlib.suppress(OSError):
                os.kill(self.peer, signal.SIGKILL)

    def read(self, name: str) -> bool:
        """Read what is there on one pipe; False at end of file."""
        fd = self.fds[name]
        while True:
            try:
                data = os.read(fd, 1 << 16)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not data:
                return False
            buf, cap = self.buffers[name], self.caps[name]
            room = cap - len(buf)
            buf += data[: max(room, 0)]
            if len(data) > room:
                self.stop(name)
                return True

    def follow(self, zygote: Control) -> Ending:
        """Pump the pipes and the control channel until the child exits."""
        sel = selectors.DefaultSelector()
        for name, fd in self.fds.items():
            sel.register(fd, selectors.EVENT_READ, name)
        sel.register(zygote.ctl_in, selectors.EVENT_READ, "ctl")
        try:
            pidfd = os.pidfd_open(self.pid)
            sel.register(pidfd, selectors.EVENT_READ, "exit")
        except (AttributeError, OSError):
            pidfd = None
        peerfd: int | None = None
        if self.peer:
            with contextlib.suppress(AttributeError, OSError):
                peerfd = os.pidfd_open(self.peer)
                sel.register(peerfd, selectors.EVENT_READ, "peer")
        memory = self.memory
        if memory is not None and memory.event >= 0:
            sel.register(memory.event, selectors.EVENT_READ, "memory")
        deadline = self.t0 + self.limits.timeout
        exited = None
        while exited is None:
            left = deadline - time.monotonic()
            if left <= 0 and self.stopped_for is None:
                self.stop("timeout")
            wait = max(left, 0) if pidfd is not None else min(max(left, 0), 0.005)
            if self.stopped_for is not None:
                wait = min(wait, 0.05) if wait else 0.05
            if memory is not None and self.stopped_for is None:
                look = memory.due()
                if look is not None and look <= 0:
                    self._memory_over(memory)
                    look = memory.due()
                if look is not None and self.stopped_for is None:
                    wait = min(wait, look)
            for key, _ in sel.select(timeout=wait):
                if key.data == "ctl":
                    self._control(zygote, sel)
                elif key.data == "memory":
                    self._memory_over(memory)
                    sel.unregister(key.fd)  # once is enough: the run is being stopped
                elif key.data == "peer":
                    if self._peer_ended():
                        sel.unregister(key.fd)
                elif key.data != "exit" and not self.read(key.data):
                    sel.unregister(key.fd)
            if peerfd is None and self.peer_status >= 0:
                self._peer_ended()
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            if pid:
                self.reaped = True
                exited = (status, usage.ru_utime + usage.ru_stime)
        sel.close()
        for watched in (pidfd, peerfd):
            if watched is not None:
                os.close(watched)
        self.close_peer()
        if memory is not None and self.stopped_for is None:
            held = memory.after()
            if held:
                self.stopped_for, self.holders = "memory", held
        return Ending(
            wait_status=exited[0],
            cpu_seconds=exited[1],
            stopped_for=self.stopped_for,
            holders=self.holders,
        )

    def _memory_over(self, memory: RunMemory | None) -> None:
        """Ask the run's memory bound; stop the whole run when it is over its limit."""
        held = memory.over() if memory is not None and self.stopped_for is None else None
        if held:
            self.holders = held
            self.stop("memory")

    def _control(self, zygote: Control, sel: selectors.BaseSelector) -> None:
        try:
            data = os.read(zygote.ctl_in, 1 << 16)
        except OSError:
            data = b""
        if not data:
            zygote.exiting = True
            sel.unregister(zygote.ctl_in)
            self.stop("cancel")
            return
        zygote.accept(data)
        for message in list(zygote.queue):
            if message.get("op") in ("kill", "exit"):
                zygote.queue.remove(message)
                zygote.exiting = zygote.exiting or message.get("op") == "exit"
                self.stop("cancel")

    def drain(self) -> None:
        """Read what the child left in its pipes (every writer is dead by now), then close."""
        for name in list(self.fds):
            self.read(name)
            os.close(self.fds[name])

    def result(self) -> JsonObject | None:
        """The agent's report, when one arrived whole: the last line on the pipe (the agent
        writes it last, on a line of its own, so bytes learner code wrote before it are
        skipped). It only explains the run; the status comes from the exit code."""
        lines = bytes(self.buffers["result"]).strip().rsplit(b"\n", 1)
        try:
            data = json.loads(lines[-1] or b"null")
        except ValueError:
            return None
        return data if isinstance(data, dict) else None


def timings(
    started: float, fork: float, forked: float, reaped: float, result: JsonObject | None
) -> dict[str, float]:
    """Where one run's time went, in milliseconds (the child's clock marks when it reported)."""
    ms = {
        "prepare": fork - started,
        "fork": forked - fork,
        "cleanup": time.monotonic() - reaped,
    }
    clock = (result or {}).get("clock") or {}
    if "ready" in clock and "ran" in clock:
        ms["child_start"] = clock.get("entered", fork) - fork
        ms["child_setup"] = clock["ready"] - clock.get("entered", fork)
        ms["code"] = clock["ran"] - clock["ready"]
        ms["exit_and_reap"] = reaped - clock["ran"]
    else:
        ms["child"] = reaped - fork
    return {key: round(value * 1000, 3) for key, value in ms.items()}
