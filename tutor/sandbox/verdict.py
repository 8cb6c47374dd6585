"""Turn how a forked run ended into a verdict: status plus one plain line of reason.

Torch-free; used by the runtime after each child has been reaped.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass

from tutor.sandbox.limits import Limits

#: the exit code of a child that could not set itself up (see ``agent.SETUP_FAILED``)
SETUP_FAILED = 111


@dataclass
class Ending:
    """Everything the runtime knows about how one child ended."""

    wait_status: int | None
    """The raw status from ``wait4`` (None: the child could not be started)."""
    cpu_seconds: float = 0.0
    stopped_for: str | None = None
    """Why the runtime killed it: "timeout", "stdout", "stderr", "result", "cancel" or None."""
    result: dict | None = None
    """What the agent reported on its result pipe (None: nothing arrived)."""


def size_text(n: int) -> str:
    """A byte count as people say it: "64 KiB", "1 MB", "500 bytes"."""
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"


def signal_name(num: int) -> str:
    """``SIGSEGV`` for 11, ``signal 99`` for an unknown number."""
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


def classify(end: Ending, limits: Limits) -> tuple[str, str]:
    """The (status, reason) of a run; see ``tutor.sandbox.result.Status``."""
    secs = f"{limits.timeout:.1f} s"
    result = end.result or {}
    kind = result.get("kind")
    if end.stopped_for == "cancel":
        return "sandbox_error", "the run was cancelled"
    if end.stopped_for in ("stdout", "stderr"):
        return (
            "output_limit",
            f"printed more than {size_text(limits.output_limit)} to {end.stopped_for}",
        )
    if end.stopped_for == "result":
        return "output_limit", f"returned more than {size_text(limits.result_limit)} of data"
    if end.stopped_for == "timeout":
        return "timeout", f"timed out after {secs} (wall clock)"
    status = end.wait_status
    if status is None:
        return "sandbox_error", "the run could not be started"
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    cpu_spent = end.cpu_seconds >= limits.cpu_seconds - 0.05
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_spent):
        return "timeout", f"timed out after {secs} of CPU"
    if sig == signal.SIGXFSZ or kind == "file":
        return "output_limit", f"wrote a file larger than {size_text(limits.file_mb * 1024 * 1024)}"
    if kind == "memory":
        return "memory", f"tried to use more than {limits.memory_mb} MB"
    if kind == "error":
        exc = result.get("exception") or {}
        return "error", _one_line(
            f"raised {exc.get('type', 'an exception')}: {exc.get('message', '')}"
        )
    if kind == "exit":
        return "error", f"exited with status {result.get('code')}"
    if kind == "ok":
        return "ok", ""
    if sig:
        return "crashed", f"crashed with {signal_name(sig)}"
    code = os.WEXITSTATUS(status)
    if code == SETUP_FAILED:
        return "sandbox_error", "the run could not be prepared (see stderr)"
    if code == 0:
        return "ok", "exited early with status 0"
    return "error", f"exited with status {code}"


def _one_line(text: str, width: int = 160) -> str:
    """The first line of ``text``, shortened to ``width`` characters."""
    line = text.strip().splitlines()[0] if text.strip() else text
    return line if len(line) <= width else line[: width - 1] + "…"
