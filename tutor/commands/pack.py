"""`tutor pack`: check drill packs, print their JSON Schema, scaffold a new one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tutor.content.wording import plural

if TYPE_CHECKING:
    from tutor.content.models import Pack
    from tutor.content.problems import Problem


@click.group()
def pack() -> None:
    """Check, describe and scaffold drill packs."""


def report_check(
    packs: list[Pack],
    problems: list[Problem],
    *,
    as_json: bool,
    skipped: list[str] | None = None,
) -> None:
    """Print the outcome of a pack check: problems to stderr (or one JSON object) and a summary;
    ``skipped`` says what was not run and why (a pack for another torch, a runtime not built)."""
    errors = [p for p in problems if p.severity == "error"]
    if as_json:
        data = {
            "ok": not errors,
            "packs": [
                {"pack": p.pack, "file": str(p.source), "drills": len(p.drills)} for p in packs
            ],
            "problems": [p.to_dict() for p in problems],
            "skipped": list(skipped or []),
        }
        click.echo(json.dumps(data))
        return
    for reason in skipped or []:
        click.echo(f"skipped: {reason}", err=True)
    for problem in problems:
        click.echo(str(problem), err=True)
    drills = sum(len(p.drills) for p in packs)
    summary = f"{plural(len(packs), 'pack')}, {plural(drills, 'drill')}"
    warnings = len(problems) - len(errors)
    said = ", ".join(
        [plural(len(errors), "problem")] * bool(errors)
        + [plural(warnings, "warning")] * bool(warnings)
    )
    if errors:
        click.echo(f"{summary}: {said}", err=True)
    else:
        click.echo(f"{summary}: ok" + (f" ({said})" if said else ""))


@pack.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--builtin", is_flag=True, help="Check the packs shipped with tutor.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--no-run", is_flag=True, help="Schema only: do not run drills in the sandbox.")
@click.pass_context
def check(
    ctx: click.Context, paths: tuple[Path, ...], builtin: bool, as_json: bool, no_run: bool
) -> None:
    """Check pack files or folders: every problem as file:line:col: field: message.

    After the schema, every drill runs in the sandbox: references pass on several seeds,
    starters and `wrong` answers fail, predict drills' setup/ask run (see docs/grading.md).
    A drill declaring `runtime: xla` runs on that runtime; where it is not built the drill is
    skipped with the reason (a failure when TUTOR_REQUIRE_XLA=1).
    """
    from tutor.content.pack_lint import check_paths
    from tutor.content.sources import builtin_pack_dir, expand

    if not paths and not builtin:
        raise click.UsageError("name pack files or folders, or use --builtin")
    targets = list(paths)
    if builtin and builtin_pack_dir().is_dir():
        targets += expand(builtin_pack_dir())
    packs, problems = check_paths(targets)
    skipped: list[str] = []
    if packs and not no_run:
        from tutor.commands.context import open_pool
        from tutor.grading.packcheck import run_stage

        with open_pool(ctx) as pool:
            found, skipped = run_stage(packs, pool)
        problems += found
    report_check(packs, problems, as_json=as_json, skipped=skipped)
    if any(p.severity == "error" for p in problems):
        sys.exit(1)


@pack.command("schema")
def schema() -> None:
    """Print the JSON Schema of a pack file (save it as pack.schema.json for your editor)."""
    from tutor.content.schema import pack_schema

    click.echo(json.dumps(pack_schema(), indent=2))


@pack.command("new")
@click.argument("name")
def new(name: str) -> None:
    """Write NAME.yaml: a commented pack with one drill of each kind (never overwrites)."""
    from tutor.content.scaffold import scaffold

    file = name if name.endswith((".yaml", ".yml")) else f"{name}.yaml"
    try:
        with open(file, "x", encoding="utf-8") as fh:
            fh.write(scaffold(name, file))
    except FileExistsError:
        raise click.ClickException(f"{file} already exists; not overwriting it") from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {file}: {exc.strerror}") from None
    click.echo(f"wrote {file}; check it with: tutor pack check {file}")
