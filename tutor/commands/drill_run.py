"""`tutor drill run ID`: grade one answer headlessly, exactly as the TUI grades it."""

from __future__ import annotations

import json
from pathlib import Path

import click


def _answer_text(answer: str | None, answer_file: Path | None) -> str:
    if (answer is None) == (answer_file is None):
        raise click.UsageError("give exactly one of --answer TEXT or --answer-file FILE")
    if answer_file is not None:
        try:
            return answer_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"cannot read {answer_file}: {exc}") from None
    return answer  # type: ignore[return-value]


@click.command("run")
@click.argument("drill_id")
@click.option("--answer", default=None, help="The answer (order: lines in order, one per line).")
@click.option(
    "--answer-file",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Read the answer from a file.",
)
@click.option("--seed", type=int, default=None, help="Replay the params of this seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def run(
    ctx: click.Context,
    drill_id: str,
    answer: str | None,
    answer_file: Path | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Grade an answer to drill ID (pack/drill). Exit 0 whenever a verdict was produced.

    A drill declaring `runtime: xla` is graded on that runtime."""
    from tutor.commands.context import find_drill, load_catalog, open_sandbox, settings_of
    from tutor.grading.engine import judge, plan, run_call
    from tutor.grading.variants import new_seed

    text = _answer_text(answer, answer_file)
    catalog = load_catalog(ctx)
    ref = find_drill(catalog, drill_id)
    if seed is None:
        seed = new_seed()
        click.echo(f"seed {seed}", err=True)
    p = plan(ref, text, seed)
    result = None
    if p.call is not None:
        from tutor.sandbox.pool import runtime_of

        runtime = runtime_of(ref.drill.runtime, settings_of(ctx).runtime)
        with open_sandbox(ctx, runtime=runtime, needed_by=ref.full_id) as sandbox:
            result = run_call(p, sandbox)
    grade = judge(ref, p, text, result)
    if as_json:
        click.echo(json.dumps(grade.contract()))
        return
    click.echo(f"{grade.drill} (seed {grade.seed}): {grade.status}")
    click.echo(grade.feedback)
    if grade.expected and grade.status == "wrong":
        click.echo(f"expected: {grade.expected}")
    if grade.hint:
        click.echo(f"hint: {grade.hint}")
