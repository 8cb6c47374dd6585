"""Where user data lives and which packs and runtime a command uses.

Everything is overridable by environment for tests: ``TUTOR_HOME`` relocates all user data
(progress database, user packs, config); ``TUTOR_PACKS`` adds pack files or directories.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from tutor.paths import PROJECT_ROOT

__all__ = [
    "BUILT_RUNTIMES",
    "PROJECT_ROOT",
    "Config",
    "ConfigError",
    "RuntimeEntry",
    "Settings",
    "built_runtime_dir",
    "config_path",
    "env_pack_paths",
    "home_dir",
    "load_config",
    "runtime_limits",
    "runtime_names",
]

#: runtimes the project builds itself: name -> (venv folder under the project, make target,
#: the limits profile of content that declares the runtime and names no ``limits``: every run
#: on xla compiles its graph first)
BUILT_RUNTIMES = {"xla": (".venv-xla", "make xla-runtime", "compile")}


def home_dir() -> Path:
    """The directory that holds the learner's data (``TUTOR_HOME`` wins)."""
    env = os.environ.get("TUTOR_HOME")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("tutor", appauthor=False))


def config_path() -> Path:
    """The config file (``$TUTOR_HOME/config.toml`` or the platform config dir)."""
    env = os.environ.get("TUTOR_HOME")
    if env:
        return Path(env).expanduser() / "config.toml"
    return Path(platformdirs.user_config_dir("tutor", appauthor=False)) / "config.toml"


class ConfigError(ValueError):
    """The config file cannot be read: ``str()`` names the file and the field."""


@dataclass(frozen=True)
class RuntimeEntry:
    """``[runtimes.NAME]``: how to start a runtime, by its whole ``command`` (a list, or a string
    split at spaces; used as is) or by its ``python`` (run with ``-m tutor.sandbox.zygote``)."""

    __pydantic_config__ = {"extra": "forbid"}  # a misspelt key is an error, not a silent no-op

    command: list[str] | str | None = None
    python: str | None = None


@dataclass(frozen=True)
class Config:
    """The config file (TOML; top-level keys it does not know are left for other tools)."""

    runtimes: dict[str, RuntimeEntry] = field(default_factory=dict)
    """Named runtimes: ``tutor --runtime NAME``, and content that declares ``runtime: NAME``."""


def load_config() -> Config:
    """The config file, typed (empty when there is none); ``ConfigError`` when it is not TOML
    or a value is the wrong shape (the message names the file and the field). pydantic and
    tomllib are imported only when there is a file to read."""
    path = config_path()
    if not path.is_file():
        return Config()
    import tomllib

    from pydantic import TypeAdapter, ValidationError

    try:
        with path.open("rb") as fh:
            return TypeAdapter(Config).validate_python(tomllib.load(fh))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not TOML: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        field_path = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"{path}: {field_path}: {first['msg']}") from None


def built_runtime_dir(name: str) -> Path:
    """The folder of a runtime the project builds (``BUILT_RUNTIMES``): PROJECT_ROOT/.venv-xla
    for ``xla``, or the folder named by ``TUTOR_RUNTIME_XLA`` (``TUTOR_RUNTIME_<NAME>``)."""
    env = os.environ.get(f"TUTOR_RUNTIME_{name.upper()}")
    if env:
        return Path(env).expanduser()
    return PROJECT_ROOT / BUILT_RUNTIMES[name][0]


def runtime_names() -> set[str]:
    """The runtime names a pack, drill or lesson may declare: ``default`` (the one tutor runs
    on), those the project builds (built or not), and each ``[runtimes.NAME]`` in config."""
    try:
        configured = set(load_config().runtimes)
    except ConfigError:  # said when a runtime is started; content still loads
        configured = set()
    return {"default", *BUILT_RUNTIMES, *configured}


def runtime_limits(runtime: str | None) -> str | None:
    """The limits profile content declaring ``runtime`` gets when it names none (None: the
    default profile)."""
    built = BUILT_RUNTIMES.get(runtime or "")
    return built[2] if built else None


def env_pack_paths() -> list[Path]:
    """Pack files or directories named by ``TUTOR_PACKS`` (``os.pathsep``-separated)."""
    raw = os.environ.get("TUTOR_PACKS", "")
    return [Path(p).expanduser() for p in raw.split(os.pathsep) if p.strip()]


@dataclass
class Settings:
    """Options shared by every subcommand."""

    packs: list[Path] = field(default_factory=list)
    """Extra pack files or directories from ``--pack`` and ``TUTOR_PACKS``."""
    runtime: str | None = None
    """The sandbox runtime: a name from config, a Python executable, or None for this one."""

    @property
    def home(self) -> Path:
        return home_dir()

    @classmethod
    def from_options(cls, packs: tuple[str, ...] = (), runtime: str | None = None) -> Settings:
        return cls(packs=[Path(p) for p in packs] + env_pack_paths(), runtime=runtime)
