"""The benchmark lab: the learner's ``fn`` timed by a naive pair of ``time.time()`` calls next to
``torch.utils.benchmark.Timer``, with its first-call cost and the profiler's top ops."""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Header, Input, Static, TextArea

from tutor.probes.data_bench import DEFAULT_CODE, MAX_THREADS, Bench
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.bench.bench_clocks import BenchClocks
from tutor.ui.labs.bench.bench_profile import BenchProfile
from tutor.ui.widgets.code_editor import CodeEditor
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

WHY = (
    "The first call pays for everything that happens once; one naive reading is one sample of "
    "a noisy clock, on however many threads torch happened to use. The Timer warms up, pins the "
    "threads, repeats in blocks and reports the median and IQR. Run it twice: the naive readings "
    "move, the median holds. (On a GPU or TPU, also synchronize before each clock reading.)"
)


def preset_code(preset: dict[str, str]) -> str:
    """The code to start with: the preset's ``code``, a drill setup that defines ``fn``, or the
    default matrix multiply."""
    if preset.get("code"):
        return preset["code"]
    setup = preset.get("setup", "")
    return setup if "def fn" in setup else DEFAULT_CODE


class BenchLab(LabScreen):
    """The benchmark lab. Preset keys: ``code`` (defines ``fn``), ``threads``."""

    LAB = "bench"
    CSS_PATH = Path(__file__).with_name("bench.tcss")
    ERROR_LINE = "#bench-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+r", "bench", "Time it", priority=True),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        self.code = preset_code(preset)
        """The code in the editor when the lab opened."""
        self.threads = preset.get("threads", "1")
        """The threads asked for (as typed)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="bench-top"):
            yield CodeEditor.code_editor(self.code, language="python", id="bench-code")
            with Vertical(id="bench-side"):
                yield Input(self.threads, type="integer", id="bench-threads")
                yield Button("Time it", variant="primary", id="bench-go")
        yield RunStatus(id="bench-status")
        yield Static(id="bench-error")
        with VerticalScroll(id="bench-main"):
            yield BenchClocks(id="bench-clocks")
            yield BenchProfile(id="bench-profile")
            yield Static(WHY, id="bench-why")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Benchmark lab"
        self.query_one("#bench-code").border_title = "code (defines fn)"
        self.query_one("#bench-threads").border_title = "Timer threads"
        self.query_one(RunStatus).message = "edit fn, then ctrl+r to time it"
        if self.has_sandbox:
            self.action_bench()

    @on(Input.Submitted)
    @on(Button.Pressed, "#bench-go")
    def action_bench(self) -> None:
        """Time the code in the editor with the threads asked for."""
        text = self.query_one("#bench-threads", Input).value.strip()
        try:
            threads = int(text)
        except ValueError:
            self.show_error(f"threads must be a whole number, not {text!r}")
            return
        if not 1 <= threads <= MAX_THREADS:
            self.show_error(f"threads must be between 1 and {MAX_THREADS}")
            return
        code = self.query_one("#bench-code", TextArea).text
        if not code.strip():
            self.show_error("write some code that defines fn first")
            return
        self.run_bench(code, threads)

    @work(exclusive=True)
    async def run_bench(self, code: str, threads: int) -> None:
        """Time ``fn`` in the sandbox (a few seconds)."""
        data = await self.run_probe(
            Bench,
            busy=f"timing fn: first call, naive clock, Timer on {threads} thread(s), profiler",
            hint="fix the code, then ctrl+r to time it again",
            code=code,
            threads=threads,
        )
        if data is not None:
            self.show(data)

    def show(self, data: Bench) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one(BenchClocks).data = data
        self.query_one(BenchProfile).data = data
        self.query_one(
            RunStatus
        ).message = f"torch {data.torch_version} · edit fn, then ctrl+r to time it again"
