"""`tutor lesson`: list the chapter lessons (`lesson check`/`record` live with the sandbox)."""

from __future__ import annotations

import json
from typing import Any

import click


@click.group()
def lesson() -> None:
    """List, check and record lessons."""


@lesson.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON list.")
def list_lessons(as_json: bool) -> None:
    """List the lessons: chapter, title, runnable snippets and labs."""
    from tutor.content.lessons import load_lessons

    lessons, problems = load_lessons()
    for problem in problems:
        click.echo(f"skipped: {problem}", err=True)
    rows: list[dict[str, Any]] = [
        {
            "chapter": n,
            "title": lessons[n].title,
            "snippets": len(lessons[n].snippets),
            "labs": list(lessons[n].labs),
        }
        for n in sorted(lessons)
    ]
    if as_json:
        click.echo(json.dumps(rows))
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table("chapter", "title", "snippets", "labs", title=f"{len(rows)} lessons")
    for row in rows:  # Text: markup in a title is shown as written
        table.add_row(
            str(row["chapter"]), Text(row["title"]), str(row["snippets"]), ", ".join(row["labs"])
        )
    Console().print(table)


# `lesson check` and `lesson record` (the snippet tool) live in their own module.
from tutor.commands.lesson_tools import register as _register_snippet_tools  # noqa: E402

_register_snippet_tools(lesson)
