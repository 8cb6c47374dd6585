"""Leave when the terminal goes away.

Closing a terminal window (or killing a tmux session) hangs up its tty. The hang-up signal goes
to the session leader only: when ``tutor`` runs under another program (``make run``, a shell
script) that leader exits and ``tutor`` gets no signal at all. Textual's input thread then reads
end-of-file forever and spins a core. So the app asks the tty, once a second, whether it is still
there: after a hang-up ``tcgetpgrp`` fails with EIO, and the app exits (its attempts are saved as
they are made, so nothing is lost).
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

from textual.app import App

CHECK_SECONDS = 1.0


def terminal_gone(fd: int) -> bool:
    """Whether the terminal on ``fd`` has hung up (not merely: is not a terminal)."""
    try:
        os.tcgetpgrp(fd)
    except OSError as exc:
        return exc.errno == errno.EIO
    return False


def watch_terminal(app: App[Any]) -> None:
    """Make ``app`` exit once its terminal hangs up (nothing to watch when headless or piped)."""
    stream = sys.__stdin__
    if app.is_headless or stream is None or not stream.isatty():
        return
    fd = stream.fileno()

    def check() -> None:
        if terminal_gone(fd):
            app.exit()

    app.set_interval(CHECK_SECONDS, check, name="terminal hang-up")
