"""Where packs come from: built-in, the user's pack folder, ``--pack``/``TUTOR_PACKS``, and
installed distributions advertising the ``tutor.packs`` entry-point group.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.settings import PROJECT_ROOT, Settings, home_dir

if TYPE_CHECKING:
    from tutor.content.problems import Problem

ENTRY_POINT_GROUP = "tutor.packs"
PACK_SUFFIXES = (".yaml", ".yml")


def builtin_pack_dir() -> Path:
    """The folder of the packs shipped with tutor."""
    return PROJECT_ROOT / "drills"


def user_pack_dir() -> Path:
    """The learner's own pack folder (``$TUTOR_HOME/packs``)."""
    return home_dir() / "packs"


def expand(path: Path) -> list[Path]:
    """A pack file as itself; a folder as its pack files (recursively, hidden ones skipped)."""
    if path.is_dir():
        found = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found += [
                Path(root) / f
                for f in sorted(files)
                if f.endswith(PACK_SUFFIXES) and not f.startswith(".")
            ]
        return found
    return [path]


def _as_paths(value: object) -> list[Path]:
    if isinstance(value, str | os.PathLike):
        return [Path(value)]
    if isinstance(value, Iterable) and not isinstance(value, bytes | dict):
        out: list[Path] = []
        for item in value:
            if not isinstance(item, str | os.PathLike):
                raise TypeError(f"expected a path, got {type(item).__name__}")
            out.append(Path(item))
        return out
    raise TypeError(f"expected a path or a list of paths, got {type(value).__name__}")


def entry_point_paths() -> tuple[list[Path], list[Problem]]:
    """Pack files and folders advertised by installed distributions.

    An entry point in the ``tutor.packs`` group loads to a path, a list of paths, or a
    callable taking no arguments that returns either. One that fails is a problem, not a crash.
    """
    from importlib import metadata  # a few dozen ms: only when packs are loaded

    from tutor.content.problems import Problem  # as is this: the summary key needs neither

    paths: list[Path] = []
    problems: list[Problem] = []
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            value = ep.load()
            if callable(value) and not isinstance(value, str | os.PathLike):
                value = value()
            paths += _as_paths(value)
        except Exception as exc:  # a broken third-party pack must not break the tutor
            where = f"<entry point {ep.name} = {ep.value}>"
            message = f"cannot load packs: {type(exc).__name__}: {exc}"
            problems.append(Problem(where, 1, 1, ENTRY_POINT_GROUP, message))
    return paths, problems


def pack_paths(settings: Settings, *, builtin: bool = True) -> tuple[list[Path], list[Problem]]:
    """Every pack file to load, in priority order, each once; plus problems finding them."""
    from tutor.content.problems import Problem

    roots: list[Path] = []
    if builtin:
        roots.append(builtin_pack_dir())
    roots.append(user_pack_dir())
    roots += settings.packs
    extra, problems = entry_point_paths()
    roots += extra
    files: list[Path] = []
    seen: set[Path] = set()
    for root in roots:
        if not root.exists():
            if root in settings.packs or root in extra:
                problems.append(Problem(str(root), 1, 1, "path", "no such pack file or folder"))
            continue
        for file in expand(root):
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                files.append(file)
    return files, problems
