"""Startup benchmark: process start to the home screen drawn (headless), median of 5 runs.

Measured side by side with a bare interpreter start, so the figure reads on any machine:
prints the median, its ratio to the 400 ms target, and the interpreter baseline.
"""

from __future__ import annotations

import os
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


def time_child(code: str, marker: str | None, env: dict[str, str]) -> float:
    """Milliseconds from spawning ``python -c code`` to ``marker`` on its stdout (or exit)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.stdout is not None
    if marker is not None:
        for line in proc.stdout:
            if line.strip() == marker:
                break
        else:
            raise SystemExit(f"the app exited before drawing the home screen (rc {proc.wait()})")
    elapsed = (time.perf_counter() - start) * 1000
    proc.stdout.read()
    if proc.wait() != 0:
        raise SystemExit(f"benchmark child failed with exit code {proc.returncode}")
    return elapsed


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TUTOR_HOME": home}
        time_child(CHILD, "drawn", env)  # warm the OS caches and create the database
        app, bare = [], []
        for _ in range(RUNS):
            bare.append(time_child("pass", None, env))
            app.append(time_child(CHILD, "drawn", env))
    median = statistics.median(app)
    baseline = statistics.median(bare)
    print(f"startup to home drawn: median {median:.0f} ms of {RUNS} runs")
    print(f"ratio to the {TARGET_MS:.0f} ms target: {median / TARGET_MS:.2f}")
    print(f"bare python start: {baseline:.0f} ms (app / bare = {median / baseline:.1f}x)")


if __name__ == "__main__":
    main()
