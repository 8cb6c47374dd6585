"""The UI side of the sandbox: ``AsyncSandbox`` starts the runtime, sends it one request at a
time as a JSON line, and turns each reply into a ``RunResult``. Torch-free and never blocking:
everything is awaited on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import time
from typing import Any, Unpack, cast

from tutor.paths import PROJECT_ROOT
from tutor.safe_text import keep_tail
from tutor.sandbox import containment, protocol
from tutor.sandbox.limits import Limits, MoreLimits, with_profile
from tutor.sandbox.result import ExceptionInfo, RunResult, Status
from tutor.sandbox.runtimes import is_local, resolve_runtime
from tutor.sandbox.text import clean_output

#: how long a runtime may take to import torch and say it is ready
START_TIMEOUT = 180.0
#: how long past its timeout a run may go before the runtime is presumed stuck and replaced
GRACE = 5.0
#: the largest control line accepted from the runtime
LINE_LIMIT = 256 * 1024 * 1024


def _clean_text(value: object, limit: int) -> str:
    """A string from the runtime, safe to show: controls stripped, length capped by keeping
    its end (where an error's cause is)."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    return clean_output(keep_tail(text, limit).encode("utf-8", "replace"))


class SandboxError(RuntimeError):
    """The runtime could not be started (not the learner's fault)."""


class AsyncSandbox:
    """Runs code and probes in a contained torch runtime, one request at a time.

    ``containment`` forces a layer ("bwrap" or "rlimits"); by default (or env
    ``TUTOR_SANDBOX``) the strongest available is used.
    """

    def __init__(self, runtime: str | None = None, *, containment: str | None = None) -> None:
        self.command = resolve_runtime(runtime)
        self.containment = containment or os.environ.get("TUTOR_SANDBOX") or "auto"
        self.ready: protocol.Ready | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._stderr_tail = b""
        self._waiting: dict[int, asyncio.Future[protocol.JsonObject]] = {}
        self._ids = itertools.count(1)
        self._lock: asyncio.Lock | None = None
        self._start_lock: asyncio.Lock | None = None
        self._closed = False
        self.last_timings: dict[str, float] = {}
        """Where the last run's time went inside the runtime (milliseconds per phase)."""

    # -- life cycle -------------------------------------------------------------------------

    async def start(self) -> protocol.Ready:
        """Start the runtime (if it is not running) and wait until torch is imported.

        Safe to call from several tasks at once: one runtime is started, all get its ready message.
        """
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
        async with self._start_lock:
            return await self._start()

    async def _start(self) -> protocol.Ready:
        if self._closed:
            raise SandboxError("the sandbox is closed")
        if self._proc is not None and self._proc.returncode is None and self.ready:
            return self.ready
        await self._stop_runtime()
        env = containment.runtime_env(str(PROJECT_ROOT))
        if not is_local(self.command):
            for key in ("HOME", "USER", "SSH_AUTH_SOCK"):  # what ssh itself needs
                if key in os.environ:
                    env[key] = os.environ[key]
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self.command,
                "--containment",
                self.containment,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
                cwd="/",
                start_new_session=True,
                limit=LINE_LIMIT,
            )
        except OSError as exc:
            raise SandboxError(f"could not start the runtime {self.command[0]}: {exc}") from exc
        self._stderr_tail = b""
        self._stderr_task = asyncio.create_task(self._drain_stderr(self._proc))
        assert self._proc.stdout is not None  # started with a pipe
        try:
            line = await asyncio.wait_for(self._proc.stdout.readline(), START_TIMEOUT)
            message = protocol.decode(line) if line else {}
        except (TimeoutError, ValueError):
            message = {}
        if message.get("event") != "ready":
            await self._stop_runtime()
            tail = self._stderr_tail.decode("utf-8", "replace").strip().splitlines()[-3:]
            raise SandboxError("the runtime did not start: " + (" | ".join(tail) or "no output"))
        ready = cast("protocol.Ready", message)  # the runtime's own first line, not learner data
        self.ready = ready
        self._reader = asyncio.create_task(self._read_replies(self._proc))
        return ready

    async def close(self) -> None:
        """Stop the runtime; the sandbox cannot be used afterwards."""
        self._closed = True
        await self._stop_runtime()

    async def __aenter__(self) -> AsyncSandbox:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def runtime_pid(self) -> int | None:
        """The process id of the running runtime (the bwrap process when wrapped)."""
        return self._proc.pid if self._proc is not None and self._proc.returncode is None else None

    @property
    def layers(self) -> list[str]:
        """The containment layers of the running runtime (empty before it started)."""
        return list(self.ready.get("layers", [])) if self.ready else []

    # -- requests ---------------------------------------------------------------------------

    async def run(
        self,
        code: str,
        *,
        timeout: float = 2.0,
        memory_mb: int = 1024,
        output_limit: int = 65536,
        profile: str | None = None,
        **limits: Unpack[MoreLimits],
    ) -> RunResult:
        """Run code exactly as a drill answer runs (fresh globals with torch, nn and F).

        ``profile`` names a limits profile (``tutor.sandbox.limits.PROFILES``, e.g. "compile")
        whose floors raise the limits given.
        """
        lim = Limits(timeout=timeout, memory_mb=memory_mb, output_limit=output_limit, **limits)
        lim = with_profile(lim, profile)
        return await self._request({"op": "run", "code": code}, lim)

    async def call(
        self,
        target: str,
        *,
        timeout: float = 10.0,
        memory_mb: int = 1024,
        output_limit: int = 65536,
        profile: str | None = None,
        **kwargs: Any,
    ) -> RunResult:
        """Call ``tutor.probes.MODULE:FUNCTION(**kwargs)`` in a fresh child; data in ``.value``.

        ``profile`` names a limits profile, as for ``run``.
        """
        if not target.startswith("tutor.probes.") or target.count(":") != 1:
            raise ValueError(f"refusing target {target!r}: only tutor.probes.MODULE:FUNCTION")
        lim = Limits(timeout=timeout, memory_mb=memory_mb, output_limit=output_limit)
        lim = with_profile(lim, profile)
        return await self._request({"op": "call", "target": target, "kwargs": kwargs}, lim)

    async def _request(self, message: protocol.Request, limits: Limits) -> RunResult:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            started = time.monotonic()
            try:
                await self.start()
            except SandboxError as exc:
                return self._result_without_reply(Status.sandbox_error, str(exc), started)
            ident = next(self._ids)
            future = asyncio.get_running_loop().create_future()
            self._waiting[ident] = future
            try:
                message["id"], message["limits"] = ident, limits.to_json()
                self._send(message)
                reply = await asyncio.wait_for(asyncio.shield(future), limits.timeout + GRACE)
            except TimeoutError:
                await self._stop_runtime()
                return self._result_without_reply(
                    Status.timeout,
                    f"timed out after {limits.timeout:.1f} s "
                    "(the runtime stopped responding and was restarted)",
                    started,
                )
            except asyncio.CancelledError:
                await asyncio.shield(self._abandon(ident, future))
                raise
            except (ConnectionError, RuntimeError) as exc:
                await self._stop_runtime()
                return self._result_without_reply(
                    Status.crashed, f"the runtime died during the run ({exc})", started
                )
            finally:
                self._waiting.pop(ident, None)
            return self._to_result(reply, limits)

    def _send(self, message: protocol.Request) -> None:
        if self._proc is None or self._proc.stdin is None or self._proc.stdin.is_closing():
            raise ConnectionError("the runtime is not running")
        self._proc.stdin.write(protocol.encode(message))

    async def _abandon(self, ident: int, future: asyncio.Future[protocol.JsonObject]) -> None:
        """A caller gave up on a run: have the runtime kill it and wait for the reply."""
        with contextlib.suppress(ConnectionError, OSError):
            self._send({"op": "kill", "id": ident})
        try:
            await asyncio.wait_for(future, GRACE)
        except (TimeoutError, ConnectionError, RuntimeError):
            await self._stop_runtime()

    # -- runtime output ---------------------------------------------------------------------

    async def _read_replies(self, proc: asyncio.subprocess.Process) -> None:
        """Hand each reply to the request waiting for it; fail them all when the runtime dies."""
        reason = "it exited"
        assert proc.stdout is not None  # started with a pipe
        try:
            while True:
                line = await proc.stdout.readline()
                if not line:
                    break
                try:
                    message = protocol.decode(line)
                except ValueError:
                    continue
                ident = message.get("id")
                future = self._waiting.get(ident) if isinstance(ident, int) else None
                if future is not None and not future.done():
                    future.set_result(message)
        except (ValueError, asyncio.LimitOverrunError) as exc:
            reason = f"it sent an oversized reply ({exc})"
        code = await proc.wait()
        if code and code < 0:
            reason = (
                f"it was killed with {signal.Signals(-code).name}"
                if -code in {s.value for s in signal.Signals}
                else f"it exited with {code}"
            )
        elif code:
            reason = f"it exited with status {code}"
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionError(reason))

    async def _drain_stderr(self, proc: asyncio.subprocess.Process) -> None:
        """Keep reading the runtime's stderr (so it never blocks); remember the last lines."""
        assert proc.stderr is not None  # started with a pipe
        while True:
            chunk = await proc.stderr.read(65536)
            if not chunk:
                return
            self._stderr_tail = (self._stderr_tail + chunk)[-8192:]

    async def _stop_runtime(self) -> None:
        """Kill the runtime and everything in it; safe to call when none is running."""
        proc, ready, self._proc, self.ready = self._proc, self.ready, None, None
        if proc is None:
            return
        if proc.returncode is None:
            assert proc.stdin is not None  # started with a pipe
            with contextlib.suppress(ConnectionError, OSError, RuntimeError):
                proc.stdin.write(protocol.encode({"op": "exit"}))
                proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 2.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        await self._forget_leftovers(proc, ready)
        for task in (self._reader, self._stderr_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _forget_leftovers(
        self, proc: asyncio.subprocess.Process, ready: protocol.Ready | None
    ) -> None:
        """After a local runtime stopped: kill what its dedicated uid still runs, drop its files."""
        if not is_local(self.command):
            return
        from tutor.sandbox import memcg, reaper

        said: protocol.Ready = ready or {"event": "ready"}
        uid = said.get("uid")
        if os.geteuid() == 0:
            await asyncio.to_thread(reaper.kill_uid, uid or containment.UID_BASE + proc.pid)
            cgroups = memcg.own_cgroup()  # the runtime made its runs' cgroups in the one it
            if cgroups is not None:  # started in, this process's: a killed one leaves them
                await asyncio.to_thread(memcg.sweep, cgroups, proc.pid)
        if "bwrap" not in said.get("layers", ["bwrap"]):
            scratch = said.get("scratch")
            if scratch and os.path.basename(scratch).startswith("tutor-runs-"):
                await asyncio.to_thread(reaper.remove, scratch)
            if uid is not None:
                marks = {path: -1 for path in reaper.writable_tree(reaper.shared_dirs())}
                await asyncio.to_thread(reaper.sweep, marks, uid, set())

    # -- results ----------------------------------------------------------------------------

    def _to_result(self, reply: protocol.JsonObject, limits: Limits) -> RunResult:
        self.last_timings = dict(reply.get("timings") or {})
        exc = reply.get("exception")
        try:
            status = Status(reply.get("status", "sandbox_error"))
        except ValueError:
            status = Status.sandbox_error
        if isinstance(exc, dict):  # learner-controlled text: type names and messages too
            exc = ExceptionInfo(
                type=_clean_text(exc.get("type"), 200),
                message=_clean_text(exc.get("message"), 4000),
                traceback=_clean_text(exc.get("traceback"), 8000),
            )
        return RunResult(
            status=status,
            reason=_clean_text(reply.get("reason"), 500),
            stdout=clean_output(protocol.unpack_bytes(reply.get("stdout"))[: limits.output_limit]),
            stderr=clean_output(protocol.unpack_bytes(reply.get("stderr"))[: limits.output_limit]),
            exception=exc if isinstance(exc, ExceptionInfo) else None,
            duration_ms=float(reply.get("duration_ms", 0.0)),
            containment=list(reply.get("layers", self.layers)),
            value=reply.get("value"),
        )

    def _result_without_reply(self, status: Status, reason: str, started: float) -> RunResult:
        """The result of a request the runtime never answered (it could not start, hung or
        died): the run's own status and reason are unknown, so these stand in for them."""
        return RunResult(
            status=status,
            reason=reason,
            containment=self.layers,
            duration_ms=round((time.monotonic() - started) * 1000, 3),
        )
