"""Startup benchmark: process start to the home screen drawn (headless), median of 5 runs.

Measured side by side with a bare interpreter start and an empty Textual app, so the figure
reads on any machine: prints the median (wall and CPU), its ratio to the 400 ms target, and the
ratio to the empty Textual app (the floor any Textual UI pays).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_MS = 400.0
RUNS = 5
ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import sys
from tutor.settings import Settings
from tutor.ui.app import TutorApp


class BenchApp(TutorApp):
    def home_drawn(self):
        assert "torch" not in sys.modules, "the UI imported torch"
        print("drawn", flush=True)
        self.exit()


BenchApp(Settings.from_options(), warm_sandbox=False).run(headless=True)
"""


#: the floor: an empty Textual app with a header and footer, drawn headless, then exit
MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Header, Static


class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("home")
        yield Footer()

    def on_mount(self):
        self.call_after_refresh(self.drawn)

    def drawn(self):
        print("drawn", flush=True)
        self.exit()


Minimal().run(headless=True)
"""


def cpu_seconds() -> float:
    """User + system CPU time of the finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_child(code: str, marker: str | None, env: dict[str, str]) -> tuple[float, float]:
    """Milliseconds from spawning ``python -c code`` to its exit (it exits as soon as the home
    screen has been drawn)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.stdout is not None
    if marker is not None and marker not in proc.stdout.read().split():
        raise SystemExit(f"the app exited before drawing the home screen (rc {proc.wait()})")
    proc.stdout.read()
    code = proc.wait()
    elapsed = (time.perf_counter() - start) * 1000
    if code != 0:
        raise SystemExit(f"benchmark child failed with exit code {proc.returncode}")
    return elapsed, (cpu_seconds() - cpu) * 1000


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TUTOR_HOME": home}
        time_child(CHILD, "drawn", env)  # warm the OS caches and create the database
        app, bare, minimal = [], [], []
        for _ in range(RUNS):
            bare.append(time_child("pass", None, env))
            minimal.append(time_child(MINIMAL, "drawn", env))
            app.append(time_child(CHILD, "drawn", env))
    median = statistics.median(w for w, _ in app)
    cpu = statistics.median(c for _, c in app)
    baseline = statistics.median(w for w, _ in bare)
    floor = statistics.median(w for w, _ in minimal)
    print(f"startup to home drawn: median {median:.0f} ms wall ({cpu:.0f} ms CPU) of {RUNS} runs")
    print(
        f"ratio to the {TARGET_MS:.0f} ms target: {median / TARGET_MS:.2f} (CPU: {cpu / TARGET_MS:.2f})"
    )
    print(f"side by side: bare python {baseline:.0f} ms, empty Textual app {floor:.0f} ms")
    print(f"tutor / empty Textual app: {median / floor:.2f}x")


if __name__ == "__main__":
    main()
