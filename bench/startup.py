"""Startup benchmark: process start to the home screen drawn (headless), median of 7 runs.

Measured side by side, in the same run, with a bare interpreter start and a bare Textual app that
shows the same twelve chapter titles (header, list, footer: the floor any Textual UI of this home
pays), so the ratio reads the same on any machine. The runs of the three alternate, so a machine
busy with other work slows each alike. The target is a ratio of at most 1.3 for the time until
home appears (each app prints a line after its first frame and the clock stops when that line
arrives); the time until the process has exited is printed too. The warm-up runs write what a
second start finds: the catalog summary the tutor draws its first frame from, and the compiled
bytecode of every module (kept under the run's temporary folder, so nothing is written to the
tree, even where ``PYTHONDONTWRITEBYTECODE`` is set to keep it from being written at all).
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
RUNS = 7
ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import sys
import time
from tutor.settings import Settings
from tutor.ui.app import TutorApp


class BenchApp(TutorApp):
    def home_drawn(self):
        assert "torch" not in sys.modules, "the UI imported torch"
        print("drawn", time.process_time() * 1000, flush=True)
        self.exit()


BenchApp(Settings.from_options(), warm_sandbox=False).run(headless=True)
"""


#: the floor: a bare Textual app showing the twelve chapter titles, drawn headless, then exit
MINIMAL = """
import time

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
        print("drawn", time.process_time() * 1000, flush=True)
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


def time_child(code: str, marker: str | None, env: dict[str, str]) -> tuple[float, ...]:
    """Milliseconds from spawning ``python -c code`` to the line ``marker`` arriving (the first
    frame drawn; the exit when ``marker`` is None) and to its exit, the CPU milliseconds it had
    used when it drew (the number on the marker line) and in all (it exits as soon as the home
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
    appeared = drawn_cpu = None
    if marker is not None:
        for line in proc.stdout:
            if line.split()[:1] == [marker]:
                appeared = (time.perf_counter() - start) * 1000
                drawn_cpu = float(line.split()[1])
                break
        else:
            raise SystemExit(f"the app exited before drawing the home screen (rc {proc.wait()})")
    proc.stdout.read()
    code = proc.wait()
    exited = (time.perf_counter() - start) * 1000
    if code != 0:
        raise SystemExit(f"benchmark child failed with exit code {proc.returncode}")
    total_cpu = (cpu_seconds() - cpu) * 1000
    if appeared is None or drawn_cpu is None:
        return exited, exited, total_cpu, total_cpu
    return appeared, exited, drawn_cpu, total_cpu


def main() -> None:
    minimal_code = MINIMAL.format(titles=chapter_titles())
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TUTOR_HOME": home, "PYTHONPYCACHEPREFIX": f"{home}/pycache"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        time_child(CHILD, "drawn", env)  # warm the OS caches, create the database and summary
        time_child(minimal_code, "drawn", env)
        app, bare, minimal = [], [], []
        for _ in range(RUNS):
            bare.append(time_child("pass", None, env))
            minimal.append(time_child(minimal_code, "drawn", env))
            app.append(time_child(CHILD, "drawn", env))

    def median(runs: list[tuple[float, ...]], i: int) -> float:
        return statistics.median(r[i] for r in runs)

    shown, gone, cpu, cpu_all = (median(app, i) for i in range(4))
    floor_shown, floor_gone, floor_cpu, floor_cpu_all = (median(minimal, i) for i in range(4))
    print(
        f"tutor: home drawn {shown:.0f} ms ({cpu:.0f} ms CPU), exited {gone:.0f} ms "
        f"({cpu_all:.0f} ms CPU); medians of {RUNS} runs, load average {load_before:.1f} "
        f"before, {os.getloadavg()[0]:.1f} after"
    )
    print(
        f"side by side: bare python {median(bare, 1):.0f} ms; bare Textual app with the twelve "
        f"titles drawn {floor_shown:.0f} ms ({floor_cpu:.0f} ms CPU), exited {floor_gone:.0f} "
        f"ms ({floor_cpu_all:.0f} ms CPU)"
    )
    ratio = shown / floor_shown
    print(
        f"tutor / bare Textual app until drawn: {ratio:.2f}x wall, {cpu / floor_cpu:.2f}x CPU; "
        f"until exited: {gone / floor_gone:.2f}x wall, {cpu_all / floor_cpu_all:.2f}x CPU "
        f"(target <= {TARGET_RATIO}x drawn: {'met' if ratio <= TARGET_RATIO else 'not met'})"
    )


if __name__ == "__main__":
    main()
