"""``Sandbox``: the blocking face of ``AsyncSandbox`` for the CLI, scripts and tests.

It owns a private event loop in a background thread, so it works the same whether or not the
caller has a loop of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar, Unpack

from tutor.sandbox.limits import RunOptions
from tutor.sandbox.protocol import Ready
from tutor.sandbox.result import RunResult
from tutor.sandbox.supervisor import AsyncSandbox

_T = TypeVar("_T")


class Sandbox:
    """A context manager running code and probes in the sandbox runtime, blocking per call.

    ``runtime``: None (this interpreter), a Python path, or a runtime name from config.
    ``containment``: force "bwrap" or "rlimits" (default: the strongest available).
    """

    def __init__(self, runtime: str | None = None, *, containment: str | None = None) -> None:
        self._async = AsyncSandbox(runtime, containment=containment)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="sandbox", daemon=True)
        self._thread.start()
        self._closed = False

    def _wait(self, coro: Coroutine[Any, Any, _T]) -> _T:
        future: Future[_T] = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def start(self) -> Ready:
        """Start the runtime now instead of on the first run; returns its ready message."""
        return self._wait(self._async.start())

    def run(self, code: str, **options: Unpack[RunOptions]) -> RunResult:
        """Run code as a drill answer runs; see ``AsyncSandbox.run`` (its limits and their
        defaults)."""
        return self._wait(self._async.run(code, **options))

    def call(self, target: str, **kwargs: Any) -> RunResult:
        """Call a probe ``tutor.probes.MODULE:FUNCTION``; its data arrives in ``.value``. The
        limits (``timeout``, ``memory_mb``, ``output_limit``, ``profile``) and their defaults
        are ``AsyncSandbox.call``'s; every other keyword goes to the probe."""
        return self._wait(self._async.call(target, **kwargs))

    @property
    def layers(self) -> list[str]:
        """Containment layers of the running runtime."""
        return self._async.layers

    @property
    def last_timings(self) -> dict[str, float]:
        """Where the last run's time went inside the runtime (milliseconds per phase)."""
        return self._async.last_timings

    @property
    def runtime_pid(self) -> int | None:
        """The process id of the running runtime."""
        return self._async.runtime_pid

    @property
    def ready(self) -> Ready | None:
        """What the runtime reported when it started (torch version, uid, probe errors)."""
        return self._async.ready

    def close(self) -> None:
        """Stop the runtime and the background loop."""
        if self._closed or threading.current_thread() is self._thread:
            return  # (a close from the loop's own thread would wait on itself)
        self._closed = True
        try:
            self._wait(self._async.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
            self._loop.close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # best effort at interpreter exit
            self.close()
