"""`tutor drill run --batch FILE`: grade many answers on one warm sandbox.

Each line of FILE is a JSON object ``{"id": "pack/drill", "seed": 3, "answer": "..."}`` (or
``"answer_file"``: a path, relative to FILE's folder; to the working directory for standard
input). ``seed`` may be left out (a fresh one is drawn and reported). Each line gets one JSON line
on stdout, in order and as soon as it is graded: ``drill run --json``'s object with ``"line"``
first, or ``{"line": N, "error": "..."}`` (with ``"drill"`` when the line named one) for a line
that cannot be graded; the lines after it are graded all the same. Blank lines are skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

if TYPE_CHECKING:
    from tutor.content.catalog import Catalog, DrillRef
    from tutor.grading.grade import Grade
    from tutor.sandbox.pool import SandboxPool

KEYS = ("id", "seed", "answer", "answer_file")
#: the largest seed a command accepts (the tutor draws below 2**31; far larger ones overflow
#: the 64-bit seeds torch and the checks derive from them)
MAX_SEED = 2**32 - 1


class BadLine(Exception):
    """A line that cannot be graded; the message says why."""


def grade_json(grade: Grade) -> dict[str, Any]:
    """The ``--json`` object of a grade: its contract, with every string as the terminal shows
    it (a learner's exception text can carry control characters; they are removed)."""
    from tutor.safe_text import strip_all

    data: dict[str, Any] = strip_all(grade.contract())
    return data


def grade_batch(ctx: click.Context, lines: TextIO) -> int:
    """Grade every line of ``lines``; the exit status (0: every line got a verdict)."""
    from tutor.commands.context import load_catalog, open_pool, warn_problems

    catalog = load_catalog(ctx)
    warn_problems(catalog.problems)
    base = Path.cwd() if lines.name in ("-", "<stdin>") else Path(lines.name).resolve().parent
    refused = 0
    with open_pool(ctx) as pool:
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            out = grade_line(number, raw, catalog, pool, base)
            refused += "error" in out
            click.echo(json.dumps(out))
    return 1 if refused else 0


def grade_line(
    number: int, raw: str, catalog: Catalog, pool: SandboxPool, base: Path
) -> dict[str, Any]:
    """The JSON object that answers line ``number`` of a batch."""
    from tutor.grading.engine import grade
    from tutor.grading.variants import new_seed
    from tutor.sandbox.runtimes import RuntimeNotBuilt, RuntimeNotFound

    drill: str | None = None
    try:
        fields = read_fields(raw)
        drill = fields["id"]
        ref = _drill(catalog, drill)
        answer = _answer(fields, base)
        seed = fields.get("seed")
        try:
            sandbox = pool.get(ref.drill.runtime)
        except RuntimeNotBuilt as exc:
            raise BadLine(f"{ref.full_id} {exc.needs}") from None
        except RuntimeNotFound as exc:
            raise BadLine(str(exc)) from None
        graded = grade(ref, answer, new_seed() if seed is None else seed, sandbox)
    except BadLine as exc:
        out: dict[str, Any] = {"line": number}
        named = drill or _id_of(raw)
        if named is not None:
            out["drill"] = named
        out["error"] = str(exc)
        return out
    return {"line": number, **grade_json(graded)}


def read_fields(raw: str) -> dict[str, Any]:
    """The fields of one line, checked: ``id`` a string, exactly one of ``answer`` (a string)
    and ``answer_file`` (a path), ``seed`` a whole number if given, no other keys."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise BadLine(f"not JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(data, dict):
        raise BadLine('expected a JSON object like {"id": "pack/drill", "answer": "..."}')
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        known = ", ".join(KEYS)
        raise BadLine(f"unknown key {', '.join(map(repr, unknown))} (known: {known})")
    if not isinstance(data.get("id"), str) or not data["id"]:
        raise BadLine('"id" must name a drill, as "pack/drill"')
    if ("answer" in data) == ("answer_file" in data):
        raise BadLine('give exactly one of "answer" and "answer_file"')
    for key in ("answer", "answer_file"):
        if key in data and not isinstance(data[key], str):
            raise BadLine(f'"{key}" must be a string, not {type(data[key]).__name__}')
    seed = data.get("seed")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
    ):
        raise BadLine(f'"seed" must be a whole number from 0 to {MAX_SEED}, not {json.dumps(seed)}')
    return data


def _id_of(raw: str) -> str | None:
    """The drill a line names, even when the line is refused for another field."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None


def _drill(catalog: Catalog, drill_id: str) -> DrillRef:
    from tutor.commands.context import find_drill

    try:
        return find_drill(catalog, drill_id)
    except click.ClickException as exc:
        raise BadLine(exc.format_message()) from None


def _answer(fields: dict[str, Any], base: Path) -> str:
    if "answer" in fields:
        return str(fields["answer"])
    path = base / str(fields["answer_file"])
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadLine(f"cannot read the answer file {path}: {exc}") from None
