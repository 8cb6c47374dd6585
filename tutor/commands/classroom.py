"""`tutor class report`: sum up learners' exported progress files for their instructor."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tutor.commands.context import load_catalog, pack_option

if TYPE_CHECKING:
    from tutor.content.catalog import Catalog
    from tutor.progress.classreport import KnownDrill, Learner


@click.group("class")
def class_() -> None:
    """Reports over a class of learners."""


def known_drills(catalog: Catalog) -> dict[str, KnownDrill]:
    """Every drill the tutor loads (built-in, the user's and ``--pack`` packs), in catalog order:
    its chapter, title, kind and the feedback of its ``wrong`` answers."""
    from tutor.content.models import CodeDrill
    from tutor.progress.classreport import KnownDrill

    known = {}
    for ref in catalog.drills():
        d = ref.drill
        wrong = tuple(w.feedback for w in d.wrong_answers) if isinstance(d, CodeDrill) else ()
        known[ref.full_id] = KnownDrill(ref.chapter, ref.title, d.kind, wrong)
    return known


def _similar(learners: list[Learner], catalog: Catalog, report: dict[str, Any]) -> list[Any]:
    """Code answers shared across learners (``progress.similar``), the drills' own code left out."""
    from dataclasses import asdict

    from tutor.content.models import CodeDrill
    from tutor.progress.similar import normalise, shared_answers

    kinds = {d["drill"]: d for d in report["drills"]}
    code = {ref.full_id for ref in catalog.drills() if isinstance(ref.drill, CodeDrill)}
    code |= {row.drill for lr in learners for row in lr.doc.drills if row.kind in ("code", "fix")}
    common: dict[str, set[str]] = {}
    for ref in catalog.drills():
        if ref.full_id in kinds and isinstance(ref.drill, CodeDrill):
            own = [
                ref.drill.starter,
                ref.drill.reference,
                *(w.code for w in ref.drill.wrong_answers),
            ]
            common[ref.full_id] = {normalise(text) for text in own}
    triples = [(lr.name, a.drill, a.answer) for lr in learners for a in lr.doc.attempts
               if a.drill in code]  # fmt: skip
    return [asdict(s) for s in shared_answers(triples, common)]


def _verify(ctx: click.Context, learners: list[Learner], catalog: Catalog) -> tuple[Any, Any]:
    from tutor.commands.class_verify import verify
    from tutor.commands.context import open_pool

    def told(done: int, total: int) -> None:
        if done == total or done % 10 == 0:
            click.echo(f"replayed {done} of {total} mastering attempts", err=True)

    with open_pool(ctx) as pool:
        return verify(learners, catalog, pool, told)


def _print_csv(header: list[str], rows: list[dict[str, Any]]) -> None:
    writer = csv.DictWriter(sys.stdout, header, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


@class_.command("report")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--csv", "as_csv", is_flag=True, help="CSV (a `table` column per row).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--matrix",
    is_flag=True,
    help="Only the learner x drill gradebook (with --csv: one row per learner, for an LMS).",
)
@click.option("--similar", is_flag=True, help="Also list code answers shared across learners.")
@click.option(
    "--verify",
    is_flag=True,
    help="Replay every mastering attempt through the grader (the sandbox) and mark each mastery "
    "that does not reproduce (exit status 1).",
)
@pack_option
@click.pass_context
def report(
    ctx: click.Context,
    files: tuple[Path, ...],
    as_csv: bool,
    as_json: bool,
    matrix: bool,
    similar: bool,
    verify: bool,
) -> None:
    """Per drill, per learner and per chapter, and the gradebook, over learners' `tutor
    progress export` FILES.

    The files are self-reported: each learner's own tutor wrote them; `--verify` replays each
    mastery through the grader. A file that cannot be used is named with the reason (exit
    status 1); the others are still reported.
    """
    from tutor.commands import class_text
    from tutor.progress.classreport import (
        class_report,
        known_from_exports,
        mastering,
        read_learners,
    )
    from tutor.progress.gradebook import matrix as gradebook

    if as_csv and as_json:
        raise click.UsageError("choose one of --csv and --json")
    learners, problems = read_learners(list(files))
    catalog = load_catalog(ctx)
    known = known_drills(catalog)
    data = class_report(learners, known, problems)
    if similar:
        data["similar"] = _similar(learners, catalog, data)
    forged: set[tuple[str, str]] = set()
    if verify:
        data["verify"], forged = _verify(ctx, learners, catalog)
        columns = list(known_from_exports(learners, known))
        data["matrix"] = gradebook(learners, columns, mastering, forged)
        for row in data["learners"]:
            row["not_reproduced"] = sum(1 for name, _d in forged if name == row["learner"])
    if as_json:
        click.echo(json.dumps(data))
    elif as_csv and matrix:
        _print_csv(*class_text.matrix_csv(data))
    elif as_csv:
        _print_csv(class_text.CSV_COLUMNS, class_text.csv_rows(data))
    else:
        click.echo(class_text.text(data, only_matrix=matrix))
    if as_csv:
        click.echo(data["self_reported"], err=True)
    if not as_json:
        for p in problems:
            click.echo(f"{p.file}: {p.error}", err=True)
    if problems or forged:
        sys.exit(1)
