"""The schema stage of ``tutor pack check``: load pack files and collect every problem.

This is the seam for the sandbox stage (``tutor.grading.packcheck``): ``check_paths`` gives the
packs that loaded cleanly, which the sandbox stage then runs drill by drill.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from tutor.content.catalog import load_packs
from tutor.content.models import Pack
from tutor.content.problems import Problem
from tutor.content.sources import builtin_pack_dir, expand, pack_paths
from tutor.settings import Settings

#: a pack file's top-level ``pack:`` line (ids are plain words, possibly quoted)
_PACK_ID = re.compile(r"""^pack:[ \t]*["']?([a-z0-9][a-z0-9-]*)["']?[ \t]*(?:#.*)?$""", re.M)


def pack_files(paths: Iterable[Path]) -> tuple[list[Path], list[Problem]]:
    """The pack files named by ``paths`` (folders expanded); missing paths are problems."""
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        path = Path(path)
        if not path.exists():
            problems.append(Problem(str(path), 1, 1, "path", "no such pack file or folder"))
            continue
        found = expand(path)
        if path.is_dir() and not found:
            problems.append(Problem(str(path), 1, 1, "path", "no .yaml pack files in this folder"))
        files += found
    return files, problems


def check_paths(
    paths: Iterable[Path], settings: Settings | None = None
) -> tuple[list[Pack], list[Problem]]:
    """Load and validate every pack under ``paths`` (schema and torch-free checks only, the
    code compiling included).

    Returns the packs that loaded (each with ``source`` set) and the problems of the rest,
    including pack ids repeated across the files, and ids already used by a pack the tutor
    loads from elsewhere (built in, the pack folder, ``settings``' packs): such a pack would
    never be loaded.
    """
    from tutor.content.syntax import code_problems

    files, problems = pack_files(paths)
    packs, load_problems = load_packs(files, inspect=code_problems)
    warnings = [w for pack in packs for w in pack.warnings]
    taken = taken_ids(settings or Settings.from_options(), {f.resolve() for f in files})
    clashes = [_clash(pack, taken[pack.pack]) for pack in packs if pack.pack in taken]
    packs = [pack for pack in packs if pack.pack not in taken]
    return packs, problems + load_problems + warnings + clashes


def taken_ids(settings: Settings, checked: set[Path]) -> dict[str, Path]:
    """Pack id -> file, for every pack file the tutor loads that is not among ``checked``
    (read from its ``pack:`` line only: a pack that does not load takes no id)."""
    files, _problems = pack_paths(settings)
    taken: dict[str, Path] = {}
    for file in files:
        if file.resolve() in checked:
            continue
        try:
            with open(file, encoding="utf-8") as fh:
                head = fh.read(64 * 1024)
        except (OSError, UnicodeDecodeError):
            continue
        found = _PACK_ID.search(head)
        if found:
            taken.setdefault(found.group(1), file)
    return taken


def _clash(pack: Pack, other: Path) -> Problem:
    """The problem of a pack whose id a pack loaded from elsewhere (``other``) already has."""
    from tutor.content.loader import display_path

    builtin = other.resolve().is_relative_to(builtin_pack_dir().resolve())
    fate = ("the tutor loads the built-in one and skips this file" if builtin
            else "the tutor loads only one of them")  # fmt: skip
    where = "the built-in pack" if builtin else "the pack"
    message = (f"pack id `{pack.pack}` is already used by {where} {display_path(other)}: "
               f"{fate}; choose another id")  # fmt: skip
    line, col = 1, 1
    if pack.source is not None:
        text = Path(pack.source).read_text(encoding="utf-8", errors="replace")
        found = _PACK_ID.search(text)
        if found:
            line = text.count("\n", 0, found.start()) + 1
            col = found.start(1) - found.start() + 1
    file = display_path(Path(pack.source)) if pack.source else "?"
    return Problem(file, line, col, "pack", message)
