"""The dispatch-race lab: the same work as a per-sample Python loop and as one batched op,
timed honestly in the sandbox, results compared, and the trips into torch counted."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Header, Input, Select, Static

from tutor.probes.data_race import MAX_N, OPS, Race
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.race.race_bars import RaceBars
from tutor.ui.labs.race.race_table import RaceTable
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

WHY = (
    "Every iteration of the loop goes through the interpreter and the dispatcher again; the "
    "batched op pays that toll once and spends the rest in one kernel. The gap follows the "
    "number of trips, not the arithmetic, which is the same on both sides."
)


class RaceLab(LabScreen):
    """The dispatch race. Preset keys: ``n`` (batch size), ``op`` (one of ``OPS``)."""

    LAB = "race"
    CSS_PATH = Path(__file__).with_name("race.tcss")
    ERROR_LINE = "#race-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+r", "race", "Race", priority=True),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        self.n = preset.get("n", "256")
        """The batch size asked for (as typed)."""
        self.op = preset.get("op", "linear") if preset.get("op") in OPS else "linear"
        """The race chosen."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="race-controls"):
            yield Input(self.n, type="integer", id="race-n")
            options = [(name, name) for name in OPS]
            yield Select(options, value=self.op, allow_blank=False, id="race-op")
            yield Button("Race", variant="primary", id="race-go")
        yield RunStatus(id="race-status")
        yield Static(id="race-error")
        with VerticalScroll(id="race-main"):
            yield Static(id="race-what")
            yield RaceBars(id="race-bars")
            yield RaceTable(id="race-table")
            yield Static(WHY, id="race-why")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Dispatch race"
        self.query_one("#race-n").border_title = "N"
        self.query_one("#race-op").border_title = "op"
        if self.has_sandbox:
            self.action_race()

    @on(Input.Submitted)
    @on(Button.Pressed, "#race-go")
    def action_race(self) -> None:
        """Start a race with the chosen N and op."""
        text = self.query_one("#race-n", Input).value.strip()
        self.op = str(self.query_one("#race-op", Select).value)
        try:
            n = int(text)
        except ValueError:
            self.show_error(f"N must be a whole number, not {text!r}")
            return
        if not 1 <= n <= MAX_N:
            self.show_error(f"N must be between 1 and {MAX_N:,}")
            return
        self.run_race(n, self.op)

    @work(exclusive=True)
    async def run_race(self, n: int, op: str) -> None:
        """Time both sides in the sandbox (a few seconds)."""
        data = await self.run_probe(
            Race,
            busy=f"racing {op} with N={n:,} (timing takes a few seconds)",
            hint="",
            op=op,
            n=n,
        )
        if data is not None:
            self.show(data)

    def show(self, data: Race) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        setup = data.setup.replace("\n", "; ")
        self.query_one("#race-what", Static).update(
            Text(
                f"{data.title}: N={data.n:,}, dim={data.dim}\nsetup: {setup}\n"
                f"timed with torch.utils.benchmark.Timer: {data.loop.measurements} blocks a side, "
                f"median per run, warm-up excluded, {data.threads} thread · torch "
                f"{data.torch_version}"
            )
        )
        self.query_one(RaceBars).data = data
        self.query_one(RaceTable).data = data
        self.query_one(
            RunStatus
        ).message = "change N or the op, then enter (or ctrl+r) to race again"
