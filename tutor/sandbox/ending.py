"""How a forked run ended (``Ending``) and the status it earns: ``run_status`` gives the status
plus one plain line of reason.

Torch-free; used by the runtime after each child has been reaped.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass

from tutor.sandbox.limit_signs import limit_crossed
from tutor.sandbox.limits import MB, Limits
from tutor.sandbox.protocol import JsonObject

#: exit codes of the agent (see ``tutor.sandbox.agent``): a child that could not set itself
#: up, an ok run whose result could not be sent, and runs that raised, ran out of memory or
#: wrote too large a file
SETUP_FAILED = 111
RESULT_LOST = 112
RAISED = 113
OUT_OF_MEMORY = 114
FILE_TOO_LARGE = 115


@dataclass
class Ending:
    """Everything the runtime knows about how one child ended."""

    wait_status: int | None
    """The raw status from ``wait4`` (None: the child could not be started)."""
    cpu_seconds: float = 0.0
    stopped_for: str | None = None
    """Why the runtime killed it: "timeout", "stdout", "stderr", "result", "cancel", "memory"
    (the run's processes together passed its memory limit) or None."""
    holders: int = 0
    """With "memory": how many processes held the memory."""
    result: JsonObject | None = None
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


def run_status(end: Ending, limits: Limits) -> tuple[str, str]:
    """The (status, reason) of a run; see ``tutor.sandbox.result.Status``."""
    secs = f"{limits.timeout:.1f} s"
    result = end.result or {}
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
    if end.stopped_for == "memory":
        together = f" together ({end.holders} processes)" if end.holders > 1 else ""
        return "memory", f"used more than {limits.memory_mb} MB{together}"
    status = end.wait_status
    if status is None:
        return "sandbox_error", "the run could not be started"
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    cpu_spent = end.cpu_seconds >= limits.cpu_seconds - 0.05
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_spent):
        return "timeout", f"timed out after {secs} of CPU"
    if sig == signal.SIGXFSZ:
        return "output_limit", f"wrote a file larger than {size_text(limits.file_mb * MB)}"
    if sig:
        return "crashed", f"crashed with {signal_name(sig)}"
    return _by_exit_code(os.WEXITSTATUS(status), result, limits)


def _by_exit_code(code: int, result: JsonObject, limits: Limits) -> tuple[str, str]:
    """The status of a child that exited: the exit code decides, the report only explains.

    The report comes from the process learner code ran in, so a forged one ("ok" for a run
    that raised) can change no status; it is used only where it agrees with the exit code.
    """
    kind = result.get("kind")
    if code == 0:
        return "ok", "" if kind == "ok" else "exited early with status 0"
    if code == SETUP_FAILED:
        return "sandbox_error", "the run could not be prepared (see stderr)"
    if kind == "exit" or code not in (RESULT_LOST, RAISED, OUT_OF_MEMORY, FILE_TOO_LARGE):
        return "error", f"exited with status {code}"
    if code == RESULT_LOST:
        return "error", "the run finished but closed the channel its result goes back on"
    if code == OUT_OF_MEMORY:
        return "memory", f"tried to use more than {limits.memory_mb} MB"
    if code == FILE_TOO_LARGE:
        return "output_limit", f"wrote a file larger than {size_text(limits.file_mb * MB)}"
    exc = result.get("exception") or {}
    if kind == "error" and result.get("raised") is True and exc:
        raised = f"raised {exc.get('type', 'an exception')}: {exc.get('message', '')}"
        crossed = limit_crossed(f"{exc.get('message', '')}\n{exc.get('traceback', '')}", limits)
        if crossed is not None:  # never cut off: the first line is shortened instead
            return "error", f"{_one_line(raised, 120)} — {crossed}"
        return "error", _one_line(raised)
    return "error", "raised an exception (its report did not arrive intact)"


#: exception types torch.compile raises when inductor could not build its C++ kernels
COMPILE_FAILURES = frozenset(
    {"InductorError", "BackendCompilerFailed", "CppCompileError", "InvalidCxxCompiler"}
)


def compile_reason(reason: str, exception: JsonObject | None, problem: str | None) -> str:
    """The reason of a run that failed in torch.compile on a runtime that cannot build C++
    (``problem``: what it lacks, said plainly), instead of the compiler's output; ``reason``
    unchanged for any other failure."""
    if problem and (exception or {}).get("type") in COMPILE_FAILURES:
        return f"torch.compile cannot build its kernels in this runtime: {problem}"
    return reason


def _one_line(text: str, width: int = 160) -> str:
    """The first line of ``text``, shortened to ``width`` characters."""
    line = text.strip().splitlines()[0] if text.strip() else text
    return line if len(line) <= width else line[: width - 1] + "…"
