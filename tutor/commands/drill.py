"""`tutor drill`: list the drills of every loaded pack (`drill run` lives with grading)."""

from __future__ import annotations

import json
from typing import Any

import click

from tutor.commands.context import load_catalog, warn_problems


@click.group()
def drill() -> None:
    """List and run drills."""


@drill.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON list.")
@click.pass_context
def list_drills(ctx: click.Context, as_json: bool) -> None:
    """List every drill: id (pack/drill), chapter, kind and title."""
    catalog = load_catalog(ctx)
    warn_problems(catalog.problems)
    rows: list[dict[str, Any]] = [
        {"id": ref.full_id, "chapter": ref.chapter, "kind": ref.drill.kind, "title": ref.title}
        for ref in catalog.drills()
    ]
    if as_json:
        click.echo(json.dumps(rows))
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table("id", "chapter", "kind", "title", title=f"{len(rows)} drills")
    for row in rows:  # Text: markup in a pack's ids or titles is shown as written
        table.add_row(Text(row["id"]), str(row["chapter"]), row["kind"], Text(row["title"]))
    Console().print(table)


def _register_run() -> None:
    """`drill run` lives with the grading engine (tutor/commands/drill_run.py)."""
    from tutor.commands.drill_run import run

    drill.add_command(run)


_register_run()
