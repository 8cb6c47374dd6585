"""Startup benchmark: process start to the home screen drawn (headless), median of 5 runs.

Measured side by side, in the same run, with a bare interpreter start and a bare Textual app that
shows the same twelve chapter titles (header, list, footer: the floor any Textual UI of this home
pays), so the ratio reads the same on any machine. The target is a ratio of at most 1.3. The
warm-up run writes the catalog summary the tutor draws its first frame from, as a second start
of the tutor finds it.
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

TARGET_RATIO = 1.3
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


#: the floor: a bare Textual app showing the twelve chapter titles, drawn headless, then exit
MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Header, OptionList

TITLES = {titles!r}


class Minimal(App):
    def compose(self):
        yield Header()
        yield OptionList(*TITLES)
        yield Footer()

    def on_mount(self):
        self.call_after_refresh(self.drawn)

    def drawn(self):
        print("drawn", flush=True)
        self.exit()


Minimal().run(headless=True)
"""


def chapter_titles() -> list[str]:
    """The twelve titles home lists (read here, so the bare app pays no YAML)."""
    import yaml

    chapters = yaml.safe_load((ROOT / "lessons" / "chapters.yaml").read_text(encoding="utf-8"))
    return [f"{c['number']:>2}  {c['title']}" for c in chapters]


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
    minimal_code = MINIMAL.format(titles=chapter_titles())
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TUTOR_HOME": home}
        time_child(CHILD, "drawn", env)  # warm the OS caches, create the database and summary
        time_child(minimal_code, "drawn", env)
        app, bare, minimal = [], [], []
        for _ in range(RUNS):
            bare.append(time_child("pass", None, env))
            minimal.append(time_child(minimal_code, "drawn", env))
            app.append(time_child(CHILD, "drawn", env))
    median = statistics.median(w for w, _ in app)
    cpu = statistics.median(c for _, c in app)
    baseline = statistics.median(w for w, _ in bare)
    floor = statistics.median(w for w, _ in minimal)
    floor_cpu = statistics.median(c for _, c in minimal)
    print(f"startup to home drawn: median {median:.0f} ms wall ({cpu:.0f} ms CPU) of {RUNS} runs")
    print(
        f"side by side: bare python {baseline:.0f} ms, bare Textual app with the twelve titles "
        f"{floor:.0f} ms ({floor_cpu:.0f} ms CPU)"
    )
    ratio = median / floor
    print(
        f"tutor / bare Textual app: {ratio:.2f}x wall, {cpu / floor_cpu:.2f}x CPU "
        f"(target <= {TARGET_RATIO}x: {'met' if ratio <= TARGET_RATIO else 'not met'})"
    )


if __name__ == "__main__":
    main()
