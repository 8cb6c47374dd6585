"""`tutor pack`: check drill packs, print their JSON Schema, scaffold a new one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tutor.commands.context import pack_option

if TYPE_CHECKING:
    pass


@click.group()
def pack() -> None:
    """Check, describe and scaffold drill packs."""


@pack.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--builtin", is_flag=True, help="Check the packs shipped with tutor.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--no-run", is_flag=True, help="Schema only: do not run drills in the sandbox.")
@click.option("--watch", is_flag=True, help="Then re-check every drill that changes on save.")
@click.option(
    "--trials",
    type=click.IntRange(1, 1000),
    default=None,
    help="Also sweep N variants (seeds) of every drill, timing each.",
)
@click.option("--seed", type=click.IntRange(0), default=0, help="The sweep's first seed.")
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Seconds a trial may take before its drill is named slow "
    "(default: half the drill's grading time limit).",
)
@pack_option
@click.pass_context
def check(
    ctx: click.Context,
    paths: tuple[Path, ...],
    builtin: bool,
    as_json: bool,
    no_run: bool,
    watch: bool,
    trials: int | None,
    seed: int,
    budget: float | None,
) -> None:
    """Check pack files or folders: every problem as file:line:col: field: message.

    After the schema, every drill runs in the sandbox: references pass on several seeds (and
    on their `regression_seeds`), starters and `wrong` answers fail, predict drills'
    setup/ask run (see docs/grading.md). A drill declaring `runtime: xla` runs on that
    runtime; where it is not built the drill is skipped with the reason (a failure when
    TUTOR_REQUIRE_XLA=1). `--trials N --seed S` sweeps N variants more. `--watch` keeps
    running and re-checks the drills that change whenever a file is saved.
    """
    from tutor.content.sources import builtin_pack_dir, expand

    if not paths and not builtin:
        raise click.UsageError("name pack files or folders, or use --builtin")
    if no_run and (trials is not None or budget is not None):
        raise click.UsageError("--trials and --budget run drills: drop --no-run")
    targets = list(paths)
    if builtin and builtin_pack_dir().is_dir():
        targets += expand(builtin_pack_dir())
    sweep = {"trials": trials, "seed": seed, "budget": budget}
    if watch:
        from tutor.commands.pack_watch import watch_packs

        watch_packs(ctx, targets, as_json=as_json, no_run=no_run, sweep=sweep)
        return
    from tutor.commands.pack_run import report_check, run_check
    from tutor.content.problems import errors

    packs, problems, sweeps, skipped = run_check(ctx, targets, no_run=no_run, sweep=sweep)
    report_check(packs, problems, as_json=as_json, skipped=skipped, sweeps=sweeps)
    if errors(problems):
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
