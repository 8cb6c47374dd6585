"""A click group whose subcommands are imported only when run (``tutor`` and ``tutor lab``)."""

from __future__ import annotations

import importlib
from typing import Any

import click


class LazyGroup(click.Group):
    """Subcommands given as ``name -> ("module:attribute", one-line help)``; a subcommand's
    module is imported only when it runs, and ``--help`` lists them from the one-line help."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.lazy)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.lazy.get(cmd_name)
        if entry is None:
            return None
        module, attr = entry[0].split(":")
        command: click.Command = getattr(importlib.import_module(module), attr)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List subcommands from their one-line help, without importing them."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, self.lazy[name][1]) for name in sorted(self.lazy)])
