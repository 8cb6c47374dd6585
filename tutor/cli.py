"""The ``tutor`` command. Subcommands are thin wrappers over the layers and load lazily,
so ``tutor`` (the TUI) starts without importing what it does not need."""

from __future__ import annotations

from pathlib import Path

import click

from tutor.commands.json_errors import JsonErrorsGroup
from tutor.commands.lazy import LazyGroup
from tutor.settings import Settings

#: subcommand name -> ("module:attribute" of its click command or group, one-line help)
SUBCOMMANDS = {
    "pack": ("tutor.cli:pack_group", "Check, try, scaffold and describe drill packs."),
    "drill": ("tutor.commands.drill:drill", "List drills and grade answers headlessly."),
    "lesson": ("tutor.commands.lesson:lesson", "List lessons; check and record their snippets."),
    "exec": ("tutor.commands.execute:execute", "Run a file in the sandbox, as an answer runs."),
    "doctor": ("tutor.commands.doctor:doctor", "Runtimes, backends and sandbox containment."),
    "lab": ("tutor.commands.lab:lab", "Run a live lab headlessly and print what it shows."),
    "progress": ("tutor.commands.progress:progress", "Export and import your progress."),
    "class": ("tutor.commands.classroom:class_", "Report on a class from learners' exports."),
}


def guard_streams() -> None:
    """Strip control sequences from everything a subcommand prints (pack text, learner output
    and exception messages included): nothing printed can drive the terminal."""
    import sys

    from tutor.safe_text import SafeStream

    if not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)
    if not isinstance(sys.stderr, SafeStream):
        sys.stderr = SafeStream(sys.stderr)


class TutorGroup(JsonErrorsGroup, LazyGroup):
    """The ``tutor`` group: lazy subcommands; with ``--json``, errors are JSON too."""


@click.group(cls=TutorGroup, lazy=SUBCOMMANDS, invoke_without_command=True)
@click.option(
    "--pack",
    "packs",
    multiple=True,
    type=click.Path(),
    help="Add a pack file or directory (repeatable; TUTOR_PACKS=dir:dir works too).",
)
@click.option("--runtime", default=None, help="Sandbox runtime: a name from config or a Python.")
@click.version_option(package_name="tutor")
@click.pass_context
def main(ctx: click.Context, packs: tuple[str, ...], runtime: str | None) -> None:
    """Learn to think in PyTorch. With no command, opens the tutor."""
    ctx.obj = Settings.from_options(packs, runtime)
    if ctx.invoked_subcommand is not None:
        guard_streams()
    else:
        from tutor.ui.app import run_app

        run_app(ctx.obj)


@click.command("try")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.argument("drill", required=False)
@click.pass_context
def try_pack(ctx: click.Context, path: Path, drill: str | None) -> None:
    """Open the tutor on just the pack(s) at PATH, as a learner sees them (DRILL: open it).

    Progress goes to a throwaway store, deleted on quit. Saving a pack file reloads it.
    """
    from tutor.commands.context import find_drill, settings_of
    from tutor.ui.pack_try import load_only, run_try

    catalog, problems = load_only([path])
    for problem in problems:
        click.echo(str(problem), err=True)
    if not catalog.packs:
        raise click.ClickException(f"no pack loads from {path}; fix the problems above")
    if drill is not None:
        if "/" not in drill and len(catalog.packs) == 1:
            drill = f"{catalog.packs[0].pack}/{drill}"
        drill = find_drill(catalog, drill).full_id
    run_try([path], drill, catalog, settings_of(ctx).runtime)


def __getattr__(name: str) -> object:
    """``pack_group``: `tutor pack` with `try`, which opens the tutor (only this top layer may
    join a command to the UI); built on first use, so `tutor` starts without it."""
    if name == "pack_group":
        from tutor.commands.pack import pack

        pack.add_command(try_pack)
        return pack
    raise AttributeError(f"module 'tutor.cli' has no attribute {name!r}")
