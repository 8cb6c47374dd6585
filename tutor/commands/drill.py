"""`tutor drill`: list the drills of every loaded pack (`drill run` lives with grading)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from tutor.commands.context import find_drill, load_catalog, pack_option, warn_problems


@click.group()
def drill() -> None:
    """List and run drills."""


@drill.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON list.")
@pack_option
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
    if not sys.stdout.isatty():  # piped: whole ids, one drill per line, tab-separated
        for row in rows:
            click.echo(f"{row['id']}\t{row['chapter']}\t{row['kind']}\t{row['title']}")
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    noun = "drill" if len(rows) == 1 else "drills"
    table = Table(title=f"{len(rows)} {noun}")
    widest = max((len(row["id"]) for row in rows), default=2)
    table.add_column("id", no_wrap=True, min_width=widest)
    table.add_column("ch.")
    table.add_column("kind")
    table.add_column("title")
    for row in rows:  # Text: markup in a pack's ids or titles is shown as written
        table.add_row(Text(row["id"]), str(row["chapter"]), row["kind"], Text(row["title"]))
    Console().print(table)


@drill.command("show")
@click.argument("drill_id")
@click.option("--seed", type=int, default=None, help="Show the variant of this seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@pack_option
@click.pass_context
def show(ctx: click.Context, drill_id: str, seed: int | None, as_json: bool) -> None:
    """Show drill ID as a learner would see it: the prompt, the code it is given, its rules,
    the lines, choices or starter, and the sizes the variant's trials draw."""
    from dataclasses import asdict

    from tutor.grading.attempt import make_variant
    from tutor.grading.shown import rules_lines, shown, sizes_text
    from tutor.grading.variants import new_seed

    ref = find_drill(load_catalog(ctx), drill_id)
    if seed is None:
        seed = new_seed()
    variant = make_variant(ref.full_id, ref.drill, seed)
    seen = shown(ref.drill, variant.params, seed)
    if as_json:
        data = asdict(variant)
        data.pop("explain")  # shown after an answer, not before
        data.update(seen.to_dict())  # the setup a learner sees: no used drill's reference
        click.echo(json.dumps({"kind": ref.drill.kind, "title": ref.title, **data}))
        return
    click.echo(f"{ref.full_id} ({ref.drill.kind}, seed {seed}): {ref.title}\n")
    click.echo(variant.prompt.rstrip())
    if seen.setup:
        click.echo("\ngiven (run before your answer):\n" + seen.setup)
    rules = rules_lines(seen.rules, seen.functions)
    if rules:
        click.echo("\nrules:\n" + "\n".join(f"  {line}" for line in rules))
    for label, items in (("lines", variant.lines), ("choices", variant.choices)):
        if items:
            click.echo(f"\n{label}:")
            for item in items:
                click.echo(f"  {item}")
    if variant.starter:
        click.echo("\nstarter:\n" + variant.starter.rstrip())
    if seen.trials:
        click.echo("\n" + sizes_text(seen.trials))
    click.echo(f"\nanswer with: tutor drill run {ref.full_id} --seed {seed} --answer ...")


def _register_run() -> None:
    """`drill run` lives with the grading engine (tutor/commands/drill_run.py)."""
    from tutor.commands.drill_run import run

    drill.add_command(run)


_register_run()
