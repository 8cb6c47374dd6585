"""`tutor lab NAME ...`: the headless face of every live lab (the data its widget draws)."""

from __future__ import annotations

import importlib

import click

#: lab name -> "module:attribute" of its click command
LAB_COMMANDS = {
    "stride": "tutor.commands.labs.stride:stride",
    "tape": "tutor.commands.labs.tape:tape",
    "loop": "tutor.commands.labs.loop:loop",
    "ledger": "tutor.commands.labs.ledger:ledger",
    "logits": "tutor.commands.labs.logits:logits",
    "checkpoint": "tutor.commands.labs.checkpoint:checkpoint",
    "race": "tutor.commands.labs.race:race",
}


class LabGroup(click.Group):
    """Lab subcommands, imported only when used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(LAB_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = LAB_COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LabGroup)
def lab() -> None:
    """Run a live lab headlessly and print what it shows."""
