"""Which command starts the sandbox runtime: this interpreter, another Python, or a named
runtime from config (any command line that starts the agent, e.g. over ssh). Torch-free."""

from __future__ import annotations

import os
import shutil
import sys

from tutor.settings import load_config

#: the module every runtime command ends up running
ZYGOTE = ["-m", "tutor.sandbox.zygote"]


class RuntimeNotFound(ValueError):
    """The runtime named is neither a config entry nor an existing Python."""


def resolve_runtime(name_or_python: str | None = None) -> list[str]:
    """The command line that starts the runtime.

    None: this interpreter. A name under ``[runtimes.NAME]`` in config: its ``command = [...]``
    (used as is) or its ``python = "..."``. Otherwise a path to (or the name on PATH of) a Python.
    """
    if not name_or_python:
        return [sys.executable, *ZYGOTE]
    entry = (load_config().get("runtimes") or {}).get(name_or_python)
    if isinstance(entry, dict):
        if entry.get("command"):
            command = entry["command"]
            return [str(c) for c in (command.split() if isinstance(command, str) else command)]
        if entry.get("python"):
            return [os.path.expanduser(str(entry["python"])), *ZYGOTE]
        raise RuntimeNotFound(
            f"runtime {name_or_python!r} in config has neither command nor python"
        )
    path = os.path.expanduser(name_or_python)
    found = path if os.sep in path else shutil.which(path)
    if found and os.path.isfile(found) and os.access(found, os.X_OK):
        return [found, *ZYGOTE]
    raise RuntimeNotFound(
        f"no runtime {name_or_python!r}: not in config and not a Python executable"
    )


def is_local(command: list[str]) -> bool:
    """Whether the runtime is a Python on this machine started directly (not over ssh etc.)."""
    return command[-len(ZYGOTE) :] == ZYGOTE and len(command) == len(ZYGOTE) + 1


def configured_runtimes() -> dict[str, list[str]]:
    """Every runtime worth reporting: the default plus each one named in config."""
    found = {"default": resolve_runtime(None)}
    for name in load_config().get("runtimes") or {}:
        try:
            found[name] = resolve_runtime(name)
        except RuntimeNotFound:
            continue
    return found


def doctor_report(runtime: str | None = None, **options) -> dict:
    """What ``tutor doctor`` reports for one runtime (see ``tutor.sandbox.doctor``)."""
    from tutor.sandbox.doctor import doctor_report as report

    return report(runtime, **options)
