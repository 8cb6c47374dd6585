"""`tutor lab NAME ...`: the headless face of every live lab (the data its widget draws)."""

from __future__ import annotations

import click

from tutor.commands.lazy import LazyGroup
from tutor.content.labs import LABS


@click.group(cls=LazyGroup, lazy={lab.name: (lab.command, lab.title) for lab in LABS})
def lab() -> None:
    """Run a live lab headlessly and print what it shows."""
