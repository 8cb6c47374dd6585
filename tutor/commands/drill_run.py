"""`tutor drill run ID`: grade one answer headlessly, exactly as the TUI grades it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

import click

from tutor.commands.context import pack_option


def _answer_text(answer: str | None, answer_file: Path | None) -> str:
    if (answer is None) == (answer_file is None):
        raise click.UsageError("give exactly one of --answer TEXT or --answer-file FILE")
    if answer_file is not None:
        try:
            return answer_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"cannot read {answer_file}: {exc}") from None
    assert answer is not None  # exactly one of the two was given
    return answer


@click.command("run")
@click.argument("drill_id", required=False)
@click.option("--answer", default=None, help="The answer (order: lines in order, one per line).")
@click.option(
    "--answer-file",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Read the answer from a file.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**32 - 1),
    default=None,
    help="Replay the params of this seed.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--batch",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help="Grade many answers on one sandbox: FILE holds JSON lines {id, seed, answer} (or "
    "answer_file instead of answer); '-' reads standard input. Prints one JSON line per answer.",
)
@click.option(
    "--record",
    is_flag=True,
    help="Keep the attempt in your progress (TUTOR_HOME), as if answered in the tutor.",
)
@pack_option
@click.pass_context
def run(
    ctx: click.Context,
    drill_id: str | None,
    answer: str | None,
    answer_file: Path | None,
    seed: int | None,
    as_json: bool,
    batch: TextIO | None,
    record: bool,
) -> None:
    """Grade an answer to drill ID (pack/drill). Exit 0 whenever a verdict was produced.

    Nothing is recorded unless `--record` is given (one answer, not a batch).

    A drill declaring `runtime: xla` is graded on that runtime. With --batch, every line of FILE
    is graded on one warm sandbox (a fresh one costs seconds per command); exit 0 when every
    line got a verdict, 1 when some line was refused (its JSON line says why)."""
    if batch is not None:
        if record:
            raise click.UsageError("--record keeps one answer: drop it with --batch")
        if (
            drill_id is not None
            or answer is not None
            or answer_file is not None
            or seed is not None
        ):
            raise click.UsageError(
                "--batch reads the drills, seeds and answers from FILE: "
                "give no DRILL_ID, --answer, --answer-file or --seed with it"
            )
        from tutor.commands.drill_batch import grade_batch

        ctx.exit(grade_batch(ctx, batch))
    if drill_id is None:
        raise click.UsageError("give a DRILL_ID to grade (or --batch FILE)")
    from tutor.commands.context import find_drill, load_catalog, open_sandbox, settings_of
    from tutor.grading.engine import grade as grade_answer
    from tutor.grading.variants import new_seed
    from tutor.sandbox.pool import runtime_of

    text = _answer_text(answer, answer_file)
    catalog = load_catalog(ctx)
    ref = find_drill(catalog, drill_id)
    if seed is None:
        seed = new_seed()  # printed with the verdict, and in the JSON
    runtime = runtime_of(ref.drill.runtime, settings_of(ctx).runtime)
    with open_sandbox(ctx, runtime=runtime, needed_by=ref.full_id) as sandbox:
        grade = grade_answer(ref, text, seed, sandbox)  # started only if the grading needs it
    recorded = None
    if record:
        from tutor.commands.drill_record import record_grade

        recorded = record_grade(grade, text)
    if as_json:
        from tutor.commands.drill_batch import grade_json

        extra = {"recorded": recorded} if record else {}
        click.echo(json.dumps({**grade_json(grade), **extra}))
        return
    click.echo(f"{grade.drill} (seed {grade.seed}): {grade.status}")
    click.echo(grade.feedback)
    if grade.expected and grade.status == "wrong":
        click.echo(f"expected: {grade.expected}")
    if grade.hint:
        click.echo(f"hint: {grade.hint}")
    if recorded:
        click.echo("recorded in your progress", err=True)
