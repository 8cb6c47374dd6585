"""First-screen benchmark: from the command's start until a terminal shows the twelve chapter
titles, for `tutor` and for a bare Textual app that draws the same titles, in the same run.

Each app is spawned on a pseudo-terminal of 120x40 columns and rows, as a learner's terminal
runs it; what it writes is fed to a terminal emulator model (``pyte``), and the clock stops
when the emulated screen shows all twelve chapter titles. So the figure is what the learner
sees: the console script's imports, the app's start, its first frame and the bytes reaching
the terminal, everything included. ``tutor`` is the real console script, started twice per
round: *warm* on a TUTOR_HOME it has started in before (the catalog summary and the progress
database are there, as a second start finds them) and *cold* on a fresh one (the first start
ever: the catalog is read and the database made). The bare app is a ``python`` file with a
header, an option list of the twelve titles and a footer: the floor any Textual home pays.

The three alternate within each round, so a machine busy with other work slows each alike.
Prints the medians, the ratios to the bare app (target: at most 1.3 for the warm start) and
the load average before and after. Compiled bytecode is kept under the run's temporary folder
(written by the warm-up runs), so nothing is written to the tree.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import queue
import signal
import statistics
import struct
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

import pyte
import yaml

TARGET_RATIO = 1.3
COLUMNS, ROWS = 120, 40
ROOT = Path(__file__).resolve().parent.parent
TUTOR = Path(sys.executable).with_name("tutor")
#: the longest any start may take before the bench gives up on it
GIVE_UP = 60.0
#: ctrl+q: quits a Textual app (the tutor's home and the bare app alike)
QUIT = b"\x11"

BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Header, OptionList

TITLES = {titles!r}


class Bare(App):
    def compose(self):
        yield Header()
        yield OptionList(*TITLES)
        yield Footer()


Bare().run()
"""


def chapter_titles() -> list[str]:
    """The twelve chapter titles (read here, so neither app's clock pays for it)."""
    chapters = yaml.safe_load((ROOT / "lessons" / "chapters.yaml").read_text(encoding="utf-8"))
    return [c["title"] for c in chapters]


def spawn_on_pty(argv: list[str], env: dict[str, str]) -> tuple[int, int]:
    """Start ``argv`` on a new pseudo-terminal of COLUMNS x ROWS as its controlling terminal;
    returns (pid, the terminal side's file descriptor)."""
    pid, fd = os.forkpty()
    if pid == 0:  # the child: its stdin, stdout and stderr are the pty
        try:
            size = struct.pack("HHHH", ROWS, COLUMNS, 0, 0)
            fcntl.ioctl(0, termios.TIOCSWINSZ, size)
            os.chdir(ROOT)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid, fd


def cpu_ms(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far, in milliseconds."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def until_visible(argv: list[str], env: dict[str, str], titles: list[str]) -> tuple[float, float]:
    """Milliseconds from spawning ``argv`` until the emulated screen shows every title, and the
    CPU milliseconds the app's process had used by then.

    A thread reads the terminal as soon as bytes arrive and stamps each chunk with its arrival
    time, so the clock stops when the bytes that complete the titles reach the terminal, not
    when the emulator (slower than a real terminal's) has finished parsing them. The app is
    then asked to quit as a learner would (ctrl+q) and reaped.
    """
    screen = pyte.Screen(COLUMNS, ROWS)
    stream = pyte.ByteStream(screen)
    chunks: queue.SimpleQueue[tuple[float, float, bytes]] = queue.SimpleQueue()
    start = time.perf_counter()
    pid, fd = spawn_on_pty(argv, env)

    def read() -> None:
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:  # EIO: every process on the terminal has left
                data = b""
            chunks.put((time.perf_counter(), cpu_ms(pid), data))
            if not data:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        while True:
            try:
                arrived, cpu, data = chunks.get(timeout=GIVE_UP)
            except queue.Empty:
                raise SystemExit(f"{argv[0]}: no titles after {GIVE_UP:.0f} s") from None
            if not data:
                text = "\n".join(screen.display)
                raise SystemExit(f"{argv[0]} exited before showing the titles:\n{text}")
            stream.feed(data)
            text = "\n".join(screen.display)
            if all(title in text for title in titles):
                return (arrived - start) * 1000, cpu
    finally:
        stop(pid, fd, reader)


def stop(pid: int, fd: int, reader: threading.Thread) -> None:
    """Quit the app as a learner would (ctrl+q), wait for it (killed after 10 s), close the
    terminal."""
    with contextlib.suppress(OSError):
        os.write(fd, QUIT)
    reader.join(10)  # the reader ends when the app and everything on its terminal have left
    done, _ = os.waitpid(pid, os.WNOHANG)
    if not done:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        reader.join(10)
    os.close(fd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    args = parser.parse_args()
    titles = chapter_titles()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        bare_file = Path(tmp, "bare_app.py")
        bare_file.write_text(BARE_APP.format(titles=titles), encoding="utf-8")
        base = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONDONTWRITEBYTECODE", "COLUMNS", "LINES")
        }
        base.update(TERM="xterm-256color", PYTHONPYCACHEPREFIX=f"{tmp}/pycache")
        base.pop("TUTOR_PACKS", None)
        warm_home = Path(tmp, "home")
        warm_env = {**base, "TUTOR_HOME": str(warm_home)}
        tutor = [str(TUTOR)]
        bare = [sys.executable, str(bare_file)]
        until_visible(tutor, warm_env, titles)  # bytecode, summary, database: a second start
        until_visible(bare, base, titles)
        warm, cold, floor = [], [], []
        for i in range(args.runs):
            cold_env = {**base, "TUTOR_HOME": f"{tmp}/cold-{i}"}
            warm.append(until_visible(tutor, warm_env, titles))
            floor.append(until_visible(bare, base, titles))
            cold.append(until_visible(tutor, cold_env, titles))
    load_after = os.getloadavg()
    rows = [
        ("tutor, warm start (a second start)", warm),
        ("tutor, cold start (a fresh TUTOR_HOME)", cold),
        ("bare Textual app, the same titles", floor),
    ]
    floor_ms, floor_cpu = (statistics.median(r[i] for r in floor) for i in (0, 1))
    print(
        f"until the twelve chapter titles are on a {COLUMNS}x{ROWS} terminal, medians of "
        f"{args.runs} interleaved rounds (CPU: the app's process until then)"
    )
    for name, runs in rows:
        ms, cpu = (statistics.median(r[i] for r in runs) for i in (0, 1))
        print(
            f"  {name:<40} {ms:6.0f} ms {ms / floor_ms:5.2f}x   "
            f"CPU {cpu:5.0f} ms {cpu / floor_cpu:5.2f}x"
        )
    pairs = ", ".join(f"{a[0]:.0f}/{b[0]:.0f}" for a, b in zip(warm, floor, strict=True))
    print(f"  each round, tutor warm / bare (ms): {pairs}")
    ratio = statistics.median(r[0] for r in warm) / floor_ms
    verdict = "met" if ratio <= TARGET_RATIO else "not met"
    print(
        f"target <= {TARGET_RATIO}x for the warm start: {verdict} ({ratio:.2f}x); load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after, on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
