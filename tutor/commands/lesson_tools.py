"""``tutor lesson check`` and ``tutor lesson record``: keep every lesson snippet's output honest.

``record`` runs each ``python run`` snippet of the named lessons in the sandbox and writes its
real output into the ``output`` block after it (and the torch version into the front matter).
``check`` re-runs every snippet and fails (exit 1) when an output drifted or is missing.
A snippet declaring ``runtime=xla`` runs on that runtime; where it is not built it is skipped
with the reason.
Both are added to the ``lesson`` group in ``tutor/commands/lesson.py``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tutor.commands.context import open_pool
from tutor.settings import PROJECT_ROOT

if TYPE_CHECKING:
    from tutor.commands.lesson_run import LessonReport

_TARGETS = click.argument("targets", nargs=-1, metavar="[CHAPTER|PATH]...")
_TIMEOUT = click.option(
    "--timeout", type=float, default=None, help="Seconds per snippet (default 20)."
)


def _resolve(targets: tuple[str, ...]) -> list[Path]:
    from tutor.commands.lesson_run import resolve_lessons

    try:
        return resolve_lessons(targets, PROJECT_ROOT)
    except FileNotFoundError as exc:
        raise click.UsageError(str(exc)) from exc


#: what a command says of the lessons it ran (the runtime's torch version, the reports, --json),
#: returning the exit status
Report = Callable[[str, "list[LessonReport]", bool], int]


def _lesson_command(name: str, *, record: bool) -> Callable[[Report], click.Command]:
    """A command that runs (``record``: records) the snippets of the lessons it is given, each
    with ``--timeout``, in one pool, then exits with what its report function returns."""

    def make(report: Report) -> click.Command:
        @click.command(name, help=report.__doc__)
        @_TARGETS
        @_TIMEOUT
        @click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
        @click.pass_context
        def command(
            ctx: click.Context, targets: tuple[str, ...], timeout: float | None, as_json: bool
        ) -> None:
            from tutor.commands.lesson_run import (
                SNIPPET_TIMEOUT,
                check_lesson,
                record_lesson,
                runtime_torch_version,
            )

            paths, limit = _resolve(targets), timeout or SNIPPET_TIMEOUT
            with open_pool(ctx) as pool:
                version = runtime_torch_version(pool.get())
                reports = [
                    record_lesson(path, pool, root=PROJECT_ROOT, version=version, timeout=limit)
                    if record
                    else check_lesson(path, pool, root=PROJECT_ROOT, version=version, timeout=limit)
                    for path in paths
                ]
            sys.exit(report(version, reports, as_json))

        return command

    return make


@_lesson_command("check", record=False)
def check(version: str, reports: list[LessonReport], as_json: bool) -> int:
    """Re-run every lesson snippet and compare it with its recorded output."""
    drifts = [d for r in reports for d in r.drifts]
    if as_json:
        data = {
            "ok": not drifts,
            "torch": version,
            "lessons": [r.as_dict() for r in reports],
            "snippets": sum(r.snippets for r in reports),
            "drifted": len(drifts),
        }
        click.echo(json.dumps(data))
    else:
        _tell_skipped(reports)
        for drift in drifts:
            click.echo(str(drift), err=True)
            if drift.diff:
                click.echo(_indent(drift.diff), err=True)
        for r in reports:
            if r.drifts and r.torch and r.ran and r.torch != r.ran:
                click.echo(
                    f"note: {r.file} was recorded with torch {r.torch}; this is torch {r.ran}"
                    " (`tutor lesson record` re-records it)",
                    err=True,
                )
        total = sum(r.snippets for r in reports)
        verdict = "ok" if not drifts else f"{len(drifts)} drifted"
        click.echo(
            f"{len(reports)} lessons, {total} snippets ({_torches(version, reports)}): {verdict}"
        )
    return 1 if drifts else 0


def _torches(version: str, reports: list[LessonReport]) -> str:
    """The torch of each runtime that ran: ``torch 2.13.0+cpu``, then ``xla runtime: torch
    2.9.0`` for each other runtime a lesson named and ran in."""
    others = {r.runtime: r.ran for r in reports if r.runtime and r.ran}
    return "; ".join(
        [f"torch {version}", *(f"{name} runtime: torch {ran}" for name, ran in others.items())]
    )


@_lesson_command("record", record=True)
def record(version: str, reports: list[LessonReport], as_json: bool) -> int:
    """Run the lessons' snippets and write their real outputs into the files."""
    failures = [d for r in reports for d in r.drifts]
    if as_json:
        data = {"ok": not failures, "torch": version, "lessons": [r.as_dict() for r in reports]}
        click.echo(json.dumps(data))
    else:
        _tell_skipped(reports)
        for failure in failures:
            click.echo(str(failure), err=True)
        for r in reports:
            state = "updated" if r.changed else "unchanged"
            click.echo(f"{r.file}: {r.snippets} snippets, {r.recorded} outputs changed ({state})")
    return 1 if failures else 0


def _tell_skipped(reports: Sequence[LessonReport]) -> None:
    """Name each snippet not run because its runtime is not built (not a failure)."""
    for r in reports:
        for reason in r.skipped:
            click.echo(f"skipped: {reason}", err=True)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def register(group: click.Group) -> None:
    """Add ``check`` and ``record`` to the ``lesson`` group."""
    group.add_command(check)
    group.add_command(record)
