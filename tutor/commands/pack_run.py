"""What `tutor pack check` runs and prints: the stages in order, the problems, the sweep's table."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tutor.content.problems import errors
from tutor.content.wording import plural

if TYPE_CHECKING:
    from tutor.content.models import Pack
    from tutor.content.problems import Problem
    from tutor.grading.sweep import DrillSweep
    from tutor.sandbox.pool import SandboxPool


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def report_sweep(sweeps: list[DrillSweep]) -> None:
    """The sweep's table: per drill its trials, failing seed and time per trial (ms)."""
    rows = [["drill", "trials", "failing seed", "min ms", "median ms", "max ms", ""]]
    for s in (x.to_dict() for x in sweeps):
        seed = "-" if s["failing_seed"] is None else str(s["failing_seed"])
        rows.append([s["drill"], str(s["trials"]), seed, _ms(s["min_ms"]), _ms(s["median_ms"]),
                     _ms(s["max_ms"]), "slow" if s["slow"] else ""])  # fmt: skip
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


def report_check(
    packs: list[Pack],
    problems: list[Problem],
    *,
    as_json: bool,
    skipped: list[str] | None = None,
    sweeps: list[DrillSweep] | None = None,
) -> None:
    """Print the outcome of a pack check: problems to stderr (or one JSON object) and a summary;
    ``skipped`` says what was not run and why (a pack for another torch, a runtime not built);
    with ``sweeps`` (``--trials``), the sweep's table (or its ``sweep`` list)."""
    refused = errors(problems)
    if as_json:
        data: dict[str, Any] = {
            "ok": not refused,
            "packs": [
                {"pack": p.pack, "file": str(p.source), "drills": len(p.drills)} for p in packs
            ],
            "problems": [p.to_dict() for p in problems],
            "skipped": list(skipped or []),
        }
        if sweeps is not None:
            data["sweep"] = [s.to_dict() for s in sweeps]
        click.echo(json.dumps(data))
        return
    if sweeps:
        report_sweep(sweeps)
    for reason in skipped or []:
        click.echo(f"skipped: {reason}", err=True)
    for problem in problems:
        click.echo(str(problem), err=True)
    drills = sum(len(p.drills) for p in packs)
    summary = f"{plural(len(packs), 'pack')}, {plural(drills, 'drill')}"
    warnings = len(problems) - len(refused)
    said = ", ".join(
        [plural(len(refused), "problem")] * bool(refused)
        + [plural(warnings, "warning")] * bool(warnings)
    )
    if refused:
        click.echo(f"{summary}: {said}", err=True)
    else:
        click.echo(f"{summary}: ok" + (f" ({said})" if said else ""))


def run_check(
    ctx: click.Context,
    targets: list[Path],
    *,
    no_run: bool,
    sweep: dict[str, Any],
    pool: SandboxPool | None = None,
) -> tuple[list[Pack], list[Problem], list[DrillSweep] | None, list[str]]:
    """The whole check of ``targets``: the schema stage, then (unless ``no_run``) the sandbox
    stage and the sweep (``sweep``: ``trials``, ``seed``, ``budget``; regression seeds only
    when ``trials`` is None), in ``pool`` or in one opened for it. Also what was skipped."""
    from tutor.commands.context import settings_of
    from tutor.content.pack_lint import check_paths

    packs, problems = check_paths(targets, settings_of(ctx))
    sweeps: list[DrillSweep] | None = None
    skipped: list[str] = []
    if packs and not no_run:
        from tutor.commands.context import open_pool
        from tutor.grading.packcheck import run_stage
        from tutor.grading.sweep import sweep_stage

        opened = nullcontext(pool) if pool is not None else open_pool(ctx)
        with opened as boxes:
            found, skipped = run_stage(packs, boxes)
            sweeps, more = sweep_stage(packs, boxes, found, **sweep)
        problems += found + more
    return packs, problems, sweeps if sweep["trials"] is not None else None, skipped
