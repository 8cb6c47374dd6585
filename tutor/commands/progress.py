"""`tutor progress`: see, export and import the learner's progress."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tutor.commands.context import pack_option

if TYPE_CHECKING:
    from tutor.progress.store import Store
    from tutor.progress.transfer import DrillRow


def open_or_exit() -> Store:
    """The progress store; a file that cannot be used is one plain line and exit status 1."""
    from tutor.progress.database import StoreError
    from tutor.progress.store import Store

    try:
        return Store()
    except StoreError as exc:
        click.echo(f"tutor: {exc.message}", err=True)
        if exc.kind in ("corrupt", "newer"):
            click.echo(
                "tutor: the file is left as it is; the tutor (`tutor`) offers a fresh start "
                "that keeps it as a backup.",
                err=True,
            )
        sys.exit(1)


def known_drills(ctx: click.Context) -> dict[str, DrillRow]:
    """Drill id -> its export row, for every drill this invocation loads (``--pack`` too)."""
    from tutor.commands.context import load_catalog
    from tutor.progress.transfer import DrillRow

    return {
        ref.full_id: DrillRow(
            drill=ref.full_id, chapter=ref.chapter, title=ref.title, kind=ref.drill.kind
        )
        for ref in load_catalog(ctx).drills()
    }


@click.group()
def progress() -> None:
    """The learner's progress (kept in TUTOR_HOME/progress.db)."""


@progress.command("export")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@pack_option
@click.pass_context
def export_cmd(ctx: click.Context, file: Path | None) -> None:
    """Write all progress as JSON to FILE (default: standard output).

    Each attempted drill the tutor loads is described too (its chapter and title), so a class
    report reads it on a machine without the drill's pack."""
    from tutor.progress.transfer import export_progress

    with open_or_exit() as store:
        text = json.dumps(export_progress(store, known_drills(ctx)), indent=2)
    if file is None:
        click.echo(text)
        return
    try:  # readable by its owner only, like the database
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(fd, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    except OSError as exc:
        click.echo(f"tutor: cannot write {file}: {exc.strerror}", err=True)
        sys.exit(1)
    click.echo(f"exported progress to {file}", err=True)


@progress.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def import_cmd(file: Path) -> None:
    """Merge progress exported on another machine from FILE."""
    from pydantic import ValidationError

    from tutor.progress.store import describe
    from tutor.progress.transfer import import_progress

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        click.echo(f"{file}: not a progress file: {exc}", err=True)
        sys.exit(1)
    with open_or_exit() as store:
        try:
            counts = import_progress(store, data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            click.echo(f"{file}: not a progress file: {where}: {first['msg']}", err=True)
            sys.exit(1)
        except (sqlite3.Error, OSError) as exc:  # one transaction: nothing was imported
            click.echo(f"tutor: nothing imported: {describe(exc)}", err=True)
            sys.exit(1)
    click.echo(
        f"imported {counts['attempts']} new attempts "
        f"({counts['attempts_known']} already here) from {file}"
    )


@progress.command("path")
def path_cmd() -> None:
    """Print where the progress database lives."""
    from tutor.settings import home_dir

    click.echo(home_dir() / "progress.db")
