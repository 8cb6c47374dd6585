"""On a real terminal, the home screen's chapter titles are handed to the terminal before
anything slow starts (the side panel, the catalog, the sandbox's torch import): the real app
on a pseudo-terminal, with what it writes read back through a terminal emulator model (pyte).
And the `tutor` console script opens the tutor without importing the command line's parser."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import os, sys
import pyte
from textual.drivers.linux_driver import LinuxDriver
from tutor.settings import Settings
from tutor.ui.app import TutorApp

written = []
write = LinuxDriver.write


def keep(self, data):
    written.append(data)
    write(self, data)


LinuxDriver.write = keep
TITLES = {titles!r}


class App(TutorApp):
    def home_drawn(self):
        screen = pyte.Screen(120, 40)
        pyte.Stream(screen).feed("".join(written))
        text = "\\n".join(screen.display)
        shown = [t for t in TITLES if t in text]
        with open(os.environ["RESULT"], "w") as fh:
            fh.write(f"{{len(shown)}} {{self._catalog is None}} {{self._sandbox is None}}\\n")
            fh.write(text)
        self.exit()


App(Settings.from_options()).run()
"""


def titles() -> list[str]:
    chapters = yaml.safe_load((ROOT / "lessons" / "chapters.yaml").read_text(encoding="utf-8"))
    return [c["title"] for c in chapters]


def run_on_pty(argv: list[str], env: dict[str, str]) -> bytes:
    """Run ``argv`` on a 120x40 pseudo-terminal until it exits; everything it wrote. The size
    is the terminal's alone: COLUMNS and LINES in the environment would override it."""
    import fcntl
    import struct
    import termios

    env = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}

    pid, fd = os.forkpty()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
            os.chdir(ROOT)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    out = bytearray()

    def read() -> None:
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            out.extend(data)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(120)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, bytes(out[-2000:])
    return bytes(out)


def test_titles_reach_the_terminal_before_the_slow_work_starts(tmp_path):
    from tutor.content.catalog import Catalog
    from tutor.content.summary import CatalogSummary, write_summary
    from tutor.settings import Settings

    settings = Settings.from_options()  # the summary a second start finds
    write_summary(CatalogSummary.of(Catalog.load(settings)), settings)
    result = tmp_path / "result"
    child = tmp_path / "child.py"
    child.write_text(CHILD.format(titles=titles()), encoding="utf-8")
    env = {**os.environ, "TERM": "xterm-256color", "RESULT": str(result)}
    run_on_pty([sys.executable, str(child)], env)
    first, screen = result.read_text().split("\n", 1)
    shown, catalog_unloaded, no_sandbox = first.split()
    assert int(shown) == 12, screen  # every title had been written when home_drawn came
    assert catalog_unloaded == "True" and no_sandbox == "True"  # and nothing slow had started


def test_the_console_script_opens_the_tutor_without_click(tmp_path):
    """`tutor` alone goes straight to the app; the first frame shows the twelve titles."""
    script = Path(sys.executable).with_name("tutor")
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import pathlib, runpy, sys\n"
        "import tutor.ui.app as A\n"
        "flag = pathlib.Path(sys.argv[1])\n"
        "def drawn(self):\n"
        "    flag.write_text(str('click' in sys.modules))\n"
        "    self.exit()\n"
        "A.TutorApp.home_drawn = drawn\n"
        f"sys.argv = [{str(script)!r}]\n"
        f"runpy.run_path({str(script)!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    flag = tmp_path / "flag"
    out = run_on_pty([sys.executable, str(probe), str(flag)], {**os.environ, "TERM": "xterm"})
    assert flag.read_text() == "False"
    assert all(t.encode() in out for t in ("Tensors", "Autograd"))


def test_arguments_still_go_to_the_command_line():
    done = subprocess.run(
        [str(Path(sys.executable).with_name("tutor")), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "version" in done.stdout
