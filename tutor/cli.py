"""The ``tutor`` command. Subcommands are thin wrappers over the layers and load lazily,
so ``tutor`` (the TUI) starts without importing what it does not need."""

from __future__ import annotations

import click

from tutor.commands.json_errors import JsonErrorsGroup
from tutor.commands.lazy import LazyGroup
from tutor.settings import Settings

#: subcommand name -> ("module:attribute" of its click command or group, one-line help)
SUBCOMMANDS = {
    "pack": ("tutor.commands.pack:pack", "Check, scaffold and describe drill packs."),
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
