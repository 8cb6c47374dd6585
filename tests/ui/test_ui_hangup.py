"""A tutor whose terminal goes away leaves, even when it runs under make (``make run``): the
hang-up signal does not reach it there, and Textual alone would then spin on end-of-file
forever. A real tutor process under a real make in a real tmux pane."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("make") is None, reason="needs tmux and make"
)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _pause() -> None:
    select.select([], [], [], 0.2)


def _until(done, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done():
            return True
        _pause()
    return bool(done())


def _tmux_out(tmux: list[str], *args: str) -> str:
    return subprocess.run([*tmux, *args], capture_output=True, text=True, check=True).stdout


def _tutor_under(make_pid: int) -> int:
    """The tutor process make started."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if int(stat[1]) == make_pid and b"tutor" in cmdline:
                return int(entry.name)
    raise AssertionError(f"no tutor under make ({make_pid})")


def test_tutor_under_make_leaves_when_its_terminal_hangs_up(tutor_home, tmp_path):
    makefile = tmp_path / "Makefile"
    makefile.write_text(f"run:\n\t{sys.executable} -m tutor\n")
    tmux = ["tmux", "-L", f"tutor-hangup-{os.getpid()}"]
    command = f"make -f {makefile} run"
    subprocess.run([*tmux, "new", "-d", "-s", "t", "-x", "80", "-y", "24", command], check=True)
    pid = 0
    try:

        def drawn() -> bool:
            pane = subprocess.run([*tmux, "capture-pane", "-p", "-t", "t"], capture_output=True)
            return b"chapters done" in pane.stdout

        assert _until(drawn, 120), "tutor did not draw home"
        pid = _tutor_under(int(_tmux_out(tmux, "display", "-p", "-t", "t", "#{pane_pid}")))
        subprocess.run([*tmux, "kill-session", "-t", "t"], check=True)  # the window closes
        assert _until(lambda: not _alive(pid), 60), "tutor kept running after a hang-up"
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        if pid and _alive(pid):
            os.kill(pid, 9)
