"""`tutor exec FILE`: run a file exactly as a drill answer runs and print the verdict."""

from __future__ import annotations

import json
import sys
from typing import IO

import click

from tutor.sandbox.limits import PROFILES


def _floors() -> str:
    """The profiles' floors, as --help shows them."""
    said = []
    for name, floors in PROFILES.items():
        if floors:
            said.append(f"{name}: " + ", ".join(f"{k} >= {v:g}" for k, v in floors.items()))
    return "; ".join(said)


@click.command("exec")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--timeout", type=float, default=2.0, show_default=True, help="Seconds allowed.")
@click.option("--memory-mb", type=int, default=1024, show_default=True, help="Memory allowed.")
@click.option(
    "--output-limit", type=int, default=65536, show_default=True, help="Bytes per stream."
)
@click.option(
    "--limits",
    "profile",
    type=click.Choice(list(PROFILES)),
    default="default",
    show_default=True,
    help=f"Limits profile: the options above, raised to its floors ({_floors()}).",
)
@click.option("--runtime", default=None, help="Sandbox runtime: a name from config or a Python.")
@click.option(
    "--containment",
    type=click.Choice(["auto", "bwrap", "rlimits"]),
    default=None,
    help="Force a containment layer (default: the strongest available).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def execute(
    ctx: click.Context,
    file: IO[str],
    timeout: float,
    memory_mb: int,
    output_limit: int,
    profile: str,
    runtime: str | None,
    containment: str | None,
    as_json: bool,
) -> None:
    """Run FILE in the sandbox ('-' reads standard input). Exit 0 whenever a verdict is produced."""
    from tutor.commands.context import open_sandbox

    code = file.read()
    with open_sandbox(ctx, runtime=runtime, containment=containment) as box:
        result = box.run(
            code, timeout=timeout, memory_mb=memory_mb, output_limit=output_limit, profile=profile
        )
    if as_json:
        data = result.model_dump(mode="json")
        if data["exception"] is not None:
            data["exception"].pop("traceback", None)
        data["traceback"] = result.exception.traceback if result.exception else ""
        click.echo(json.dumps(data))
        return
    if result.stdout:
        click.echo(result.stdout, nl=not result.stdout.endswith("\n"))
    if result.stderr:
        click.echo(result.stderr, nl=not result.stderr.endswith("\n"), err=True)
    if result.exception is not None:
        click.echo(result.exception.traceback, err=True)
    line = result.status.value + (f": {result.reason}" if result.reason else "")
    click.echo(
        f"[{line}; {result.duration_ms:.0f} ms; {', '.join(result.containment)}]", file=sys.stderr
    )
