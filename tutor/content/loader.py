"""Load drill packs from YAML with every problem reported at its file:line:col."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from tutor.content.errors import translate
from tutor.content.files import read_text
from tutor.content.models import Pack
from tutor.content.pack_rules import check_pack_data
from tutor.content.positions import Locator, parse_located
from tutor.content.problems import PackError, Problem, errors
from tutor.safe_text import has_controls, strip_all

__all__ = [
    "display_path",
    "load_pack",
    "load_pack_located",
    "parse_pack",
    "read_text",
    "validate_located",
]


def display_path(path: Path) -> str:
    """The path as shown in problems: relative to the working directory when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if relative.startswith("..") else relative


def validate_located(
    model: type[BaseModel], data: Any, locator: Locator, problems: list[Problem]
) -> Any:
    """Validate plain data against ``model``; on failure add translated problems, return None."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems.extend(translate(exc, data, locator, model))
        return None


def parse_pack(text: str, file: str) -> tuple[Pack, Locator]:
    """Validate a pack from its YAML text; ``file`` names it in problems."""
    data, locator, problems = parse_located(text, file)
    if "\\" in text or has_controls(text):  # only then can a value hold a control character
        data = strip_all(data)  # no pack text can drive a terminal, in the CLI or the TUI
    if data is None and not problems:
        message = "the file is empty: a pack needs `pack`, `title`, `chapter` and `drills`"
        problems.append(Problem(file, 1, 1, "yaml", message))
    if problems and data is None:
        raise PackError(problems)
    pack = validate_located(Pack, data, locator, problems)
    problems.extend(check_pack_data(data, locator))
    if errors(problems) or pack is None:
        raise PackError(sorted(problems, key=lambda p: (p.line, p.col)))
    pack._warnings = problems  # said by `tutor pack check`; the pack loads
    return pack, locator


def load_pack_located(path: str | os.PathLike[str]) -> tuple[Pack, Locator]:
    """Load and validate one pack file; raise PackError with every problem found."""
    path = Path(path)
    file = display_path(path)
    pack, locator = parse_pack(read_text(path, file), file)
    return pack.model_copy(update={"source": path}), locator


def load_pack(path: str | os.PathLike[str]) -> Pack:
    """Load and validate one pack file (see ``load_pack_located``)."""
    return load_pack_located(path)[0]
