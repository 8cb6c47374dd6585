"""`tutor class report`: sum up learners' exported progress files for their instructor."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import click

from tutor.content.wording import plural

#: the columns of ``--csv``: one table of rows, its first column saying which table a row is in
CSV_COLUMNS = [
    "table", "name", "chapter", "learners", "attempts", "correct", "mastered",
    "median_seconds", "common_wrong", "drills_tried", "chapters_done", "lessons_read",
    "last_attempt", "drills", "learners_done", "learners_active", "median_mastered",
]  # fmt: skip


@click.group("class")
def class_() -> None:
    """Reports over a class of learners."""


def _chapter_map(ctx: click.Context) -> dict[str, int]:
    """Drill id -> chapter, for every drill the tutor loads (built-in and the user's packs)."""
    from tutor.content.catalog import Catalog

    catalog = Catalog.load(ctx.obj)
    return {ref.full_id: ref.chapter for ref in catalog.drills()}


def _one_line(text: str, width: int = 40) -> str:
    flat = " ⏎ ".join(part.strip() for part in text.splitlines() if part.strip())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _text(report: dict[str, Any]) -> str:
    out = [
        f"Class report over {plural(len(report['learners']), 'learner file')}.",
        report["self_reported"],
    ]
    rows = [["learner", "attempts", "drills tried", "mastered", "chapters done", "lessons read"]]
    for lr in report["learners"]:
        done = ", ".join(map(str, lr["chapters_done"])) or "-"
        read = ", ".join(map(str, lr["lessons_read"])) or "-"
        rows.append([lr["learner"], str(lr["attempts"]), str(lr["drills_tried"]),
                     str(lr["drills_mastered"]), done, read])  # fmt: skip
    out += ["", "Learners", *_table(rows)]
    rows = [["chapter", "drills", "done by", "lesson read by", "active", "attempts", "median mastered"]]  # fmt: skip
    for ch in report["chapters"]:
        rows.append([str(ch["chapter"]), str(ch["drills"]), str(ch["learners_done"]),
                     str(ch["lessons_read"]), str(ch["learners_active"]), str(ch["attempts"]),
                     str(ch["median_mastered"])])  # fmt: skip
    out += ["", "Chapters", *_table(rows)]
    rows = [["drill", "ch", "learners", "attempts", "correct", "mastered", "most common wrong answers"]]  # fmt: skip
    for d in report["drills"]:
        wrong = "; ".join(f"{_one_line(w['answer'])} ({w['count']})" for w in d["common_wrong"])
        chapter = "?" if d["chapter"] is None else str(d["chapter"])
        rows.append([d["drill"], chapter, str(d["learners"]), str(d["attempts"]),
                     str(d["correct"]), str(d["mastered"]), wrong or "-"])  # fmt: skip
    out += ["", "Drills (mastered: learners who answered right with at most one hint)"]
    out += _table(rows)
    return "\n".join(out)


def _csv_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for lr in report["learners"]:
        rows.append({**lr, "table": "learner", "name": lr["learner"],
                     "mastered": lr["drills_mastered"],
                     "chapters_done": " ".join(map(str, lr["chapters_done"])),
                     "lessons_read": " ".join(map(str, lr["lessons_read"]))})  # fmt: skip
    for ch in report["chapters"]:
        rows.append({**ch, "table": "chapter", "name": f"chapter {ch['chapter']}"})
    for d in report["drills"]:
        wrong = " | ".join(f"{w['answer']} ({w['count']})" for w in d["common_wrong"])
        rows.append({**d, "table": "drill", "name": d["drill"], "common_wrong": wrong})
    return rows


@class_.command("report")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--csv", "as_csv", is_flag=True, help="One CSV table (a `table` column per row).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def report(ctx: click.Context, files: tuple[Path, ...], as_csv: bool, as_json: bool) -> None:
    """Per drill, per learner and per chapter, over learners' `tutor progress export` FILES.

    The files are self-reported: each learner's own tutor wrote them. A file that cannot be
    used is named with the reason (exit status 1); the others are still reported.
    """
    from tutor.progress.classreport import class_report, read_learners

    if as_csv and as_json:
        raise click.UsageError("choose one of --csv and --json")
    learners, problems = read_learners(list(files))
    data = class_report(learners, _chapter_map(ctx), problems)
    if as_json:
        click.echo(json.dumps(data))
    elif as_csv:
        writer = csv.DictWriter(sys.stdout, CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(_csv_rows(data))
        click.echo(data["self_reported"], err=True)
    else:
        click.echo(_text(data))
    if not as_json:
        for p in problems:
            click.echo(f"{p.file}: {p.error}", err=True)
    if problems:
        sys.exit(1)
