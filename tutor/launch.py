"""The ``tutor`` console script. With no arguments it opens the tutor straight away, without
importing the command line's parser (click and the group's option handling cost a tenth of the
time to the first frame); anything else goes to the command line, ``tutor.cli``."""

from __future__ import annotations

import sys


def main() -> None:
    """Open the tutor (no arguments), or run the command line."""
    if len(sys.argv) == 1:
        from tutor.settings import Settings
        from tutor.ui.app import run_app

        run_app(Settings.from_options())
        return
    from tutor.cli import main as command_line

    command_line()
