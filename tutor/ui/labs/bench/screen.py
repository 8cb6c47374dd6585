"""The benchmark lab: the learner's ``fn`` timed by a naive pair of ``time.time()`` calls next to
``torch.utils.benchmark.Timer``, with its first-call cost and the profiler's top ops."""

from __future__ import annotations

from typing import cast

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from tutor.content.labs import Value
from tutor.content.wording import plural
from tutor.probes.data_bench import DEFAULT_CODE, Bench
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.bench.bench_clocks import BenchClocks
from tutor.ui.labs.bench.bench_profile import BenchProfile

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


class BenchLab(LabScreen[Bench]):
    """The benchmark lab. Preset keys: ``code`` (defines ``fn``), ``threads``; a drill's
    ``setup`` is the code when it defines ``fn``."""

    RUN_KEY = "Time it"
    RUN_BUTTON = True
    EDITOR = {"theme": "monokai", "soft_wrap": True, "show_line_numbers": True}
    IDLE = "edit fn, then ctrl+r to time it"
    HINT = "fix the code, then ctrl+r to time it again"

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__(preset)
        self.texts["code"] = preset_code(self.preset)

    def compose_controls(self) -> ComposeResult:
        """The code beside the Timer's threads and the run button."""
        with Horizontal(id="bench-top"):
            yield self.control("code")
            with Vertical(id="bench-side"):
                yield self.control("threads")
                yield self.run_button()

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="bench-main"):
            yield BenchClocks(id="bench-clocks")
            yield BenchProfile(id="bench-profile")
            yield Static(WHY, id="bench-why")

    def busy(self, values: dict[str, Value]) -> str:
        threads = cast("int", values["threads"])
        return f"timing fn: first call, naive clock, Timer on {plural(threads, 'thread')}, profiler"

    def show(self, data: Bench) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one(BenchClocks).data = data
        self.query_one(BenchProfile).data = data
        self.say(f"torch {data.torch_version} · edit fn, then ctrl+r to time it again")
