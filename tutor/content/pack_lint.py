"""The schema stage of ``tutor pack check``: load pack files and collect every problem.

This is the seam for the sandbox stage (``tutor.grading.packcheck``): ``check_paths`` gives the
packs that loaded cleanly, which the sandbox stage then runs drill by drill.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tutor.content.catalog import load_packs
from tutor.content.models import Pack
from tutor.content.problems import Problem
from tutor.content.sources import builtin_pack_dir, expand


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


def check_paths(paths: Iterable[Path]) -> tuple[list[Pack], list[Problem]]:
    """Load and validate every pack under ``paths`` (schema and torch-free checks only, the
    code compiling included).

    Returns the packs that loaded (each with ``source`` set) and the problems of the rest,
    including pack ids repeated across the files.
    """
    from tutor.content.syntax import code_problems

    files, problems = pack_files(paths)
    packs, load_problems = load_packs(files, inspect=code_problems)
    warnings = [w for pack in packs for w in pack.warnings]
    return packs, problems + load_problems + warnings


def builtin_paths() -> list[Path]:
    """The paths ``tutor pack check --builtin`` checks."""
    return [builtin_pack_dir()]
