"""Which command starts the sandbox runtime: this interpreter, another Python, or a named
runtime from config (any command line that starts the agent, e.g. over ssh). Torch-free."""

from __future__ import annotations

import os
import shutil
import sys

from tutor.settings import BUILT_RUNTIMES, ConfigError, RuntimeEntry, built_runtime_dir, load_config

#: the module every runtime command ends up running
ZYGOTE = ["-m", "tutor.sandbox.zygote"]


#: runtimes the project builds itself: name -> (venv folder under the project, make target)
BUILT = BUILT_RUNTIMES


def built_python(name: str) -> str | None:
    """The Python of a runtime the project builds (``BUILT``), when it has been built (its
    folder is ``tutor.settings.built_runtime_dir``: PROJECT_ROOT/.venv-xla unless overridden)."""
    folder = built_runtime_dir(name)
    python = folder / "bin" / "python"
    done = folder / ".installed"
    return str(python) if python.exists() and done.exists() else None


class RuntimeNotFound(ValueError):
    """The runtime named is neither a config entry nor an existing Python."""


class RuntimeNotBuilt(RuntimeNotFound):
    """A runtime the project builds (``BUILT``) has not been built yet."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.make = BUILT[name][1]
        super().__init__(f"the {name} runtime is not built: run `{self.make}`")

    @property
    def needs(self) -> str:
        """What a drill or snippet on this runtime needs, said plainly."""
        return f"needs the {self.name} runtime: run `{self.make}`"


def required(name: str) -> bool:
    """Whether a missing runtime is a failure rather than a skip: ``TUTOR_REQUIRE_XLA=1`` for
    ``xla`` (``TUTOR_REQUIRE_<NAME>``; CI sets it where it builds the runtime)."""
    return os.environ.get(f"TUTOR_REQUIRE_{name.upper()}") == "1"


def configured() -> dict[str, RuntimeEntry]:
    """The ``[runtimes]`` of the config file; a file that cannot be read is ``RuntimeNotFound``
    with the file and field at fault (every caller already says that one plainly)."""
    try:
        return load_config().runtimes
    except ConfigError as exc:
        raise RuntimeNotFound(str(exc)) from None


def resolve_runtime(name_or_python: str | None = None) -> list[str]:
    """The command line that starts the runtime.

    None: this interpreter. A name under ``[runtimes.NAME]`` in config: its ``command = [...]``
    (used as is) or its ``python = "..."``. A runtime the project builds (``xla``: PROJECT_ROOT/
    .venv-xla, by ``make xla-runtime``), found with no configuration. Otherwise a path to (or
    the name on PATH of) a Python.
    """
    if not name_or_python:
        return [sys.executable, *ZYGOTE]
    entry = configured().get(name_or_python)
    if entry is not None:
        command = entry.command
        if command:
            return command.split() if isinstance(command, str) else list(command)
        if entry.python:
            return [os.path.expanduser(entry.python), *ZYGOTE]
        raise RuntimeNotFound(
            f"runtime {name_or_python!r} in config has neither command nor python"
        )
    if name_or_python in BUILT:
        python = built_python(name_or_python)
        if python is None:
            raise RuntimeNotBuilt(name_or_python)
        return [python, *ZYGOTE]
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
    for name in BUILT:
        if built_python(name) is not None:
            found[name] = resolve_runtime(name)
    try:
        names = list(configured())
    except RuntimeNotFound:
        names = []  # resolving one by name says what is wrong with the file
    for name in names:
        try:
            found[name] = resolve_runtime(name)
        except RuntimeNotFound:
            continue
    return found
