"""The rank timeline lab: 2-4 real gloo ranks run one collective in the sandbox; each rank's
tensor before and after, who waited for whom, and what a rank that skips the call does."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Header, Input, Select, Static

from tutor.probes.data_ranks import MAX_WORLD, MIN_WORLD, OPS, Ranks
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.ranks.ranks_table import RanksTable
from tutor.ui.labs.ranks.ranks_timeline import RanksTimeline
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

NONE = "none"


def rank_choice(preset: dict[str, str], key: str) -> str:
    """A preset rank (``"0"``..``"3"``) or ``"none"``."""
    value = preset.get(key, NONE)
    return value if value in {str(r) for r in range(MAX_WORLD)} else NONE


def parse_values(text: str, world: int) -> list[float] | str:
    """The typed values, or a sentence saying what is wrong with them."""
    if not text.strip():
        return [float(r + 1) for r in range(world)]
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        return f"values must be numbers separated by commas, not {text!r}"
    if len(values) != world:
        return f"give one value per rank: {world} values, not {len(values)}"
    return values


class RanksLab(LabScreen):
    """The rank timeline. Preset keys: ``world``, ``op``, ``values`` (``1,2,3,4``), ``slow`` and
    ``skip`` (a rank number)."""

    LAB = "ranks"
    CSS_PATH = Path(__file__).with_name("ranks.tcss")
    ERROR_LINE = "#ranks-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+r", "run", "Run", priority=True),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        world = preset.get("world", "4")
        self.world = int(world) if world in {str(w) for w in range(MIN_WORLD, MAX_WORLD + 1)} else 4
        """The number of ranks chosen."""
        self.op = preset.get("op", "all_reduce") if preset.get("op") in OPS else "all_reduce"
        """The collective chosen."""
        self.values = preset.get("values", "")
        """The values typed (empty: rank r starts from r + 1)."""
        self.slow = rank_choice(preset, "slow")
        """The slow rank, or "none"."""
        self.skip = rank_choice(preset, "skip")
        """The rank that skips the collective, or "none"."""

    def compose(self) -> ComposeResult:
        ranks = [(NONE, NONE)] + [(str(r), str(r)) for r in range(MAX_WORLD)]
        slow = [(f"slow {'–' if v == NONE else v}", v) for _, v in ranks]
        skip = [(f"skip {'–' if v == NONE else v}", v) for _, v in ranks]
        yield Header()
        with Horizontal(id="ranks-controls"):
            worlds = [(f"{w} ranks", w) for w in range(MIN_WORLD, MAX_WORLD + 1)]
            yield Select(worlds, value=self.world, allow_blank=False, id="ranks-world")
            yield Select([(op, op) for op in OPS], value=self.op, allow_blank=False, id="ranks-op")
            yield Input(self.values, placeholder="rank r starts from r + 1", id="ranks-values")
            yield Select(slow, value=self.slow, allow_blank=False, id="ranks-slow")
            yield Select(skip, value=self.skip, allow_blank=False, id="ranks-skip")
            yield Button("Run", variant="primary", id="ranks-go")
        yield RunStatus(id="ranks-status")
        yield Static(id="ranks-error")
        with VerticalScroll(id="ranks-main"):
            yield RanksTable(id="ranks-table")
            yield RanksTimeline(id="ranks-timeline")
            yield Static(id="ranks-why")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Rank timeline"
        self.query_one("#ranks-values").border_title = "values"
        self.query_one(RunStatus).message = "choose, then ctrl+r to run the ranks"
        if self.has_sandbox:
            self.action_run()

    @on(Input.Submitted)
    @on(Button.Pressed, "#ranks-go")
    def action_run(self) -> None:
        """Run the collective with the choices on screen."""
        world = int(self.query_one("#ranks-world", Select).value)
        op = str(self.query_one("#ranks-op", Select).value)
        values = parse_values(self.query_one("#ranks-values", Input).value, world)
        if isinstance(values, str):
            self.show_error(values)
            return
        slow, skip = (str(self.query_one(f"#ranks-{k}", Select).value) for k in ("slow", "skip"))
        for name, rank in (("slow", slow), ("skip", skip)):
            if rank != NONE and int(rank) >= world:
                self.show_error(f"the {name} rank must be 0 to {world - 1} with {world} ranks")
                return
        self.run_ranks(
            world,
            op,
            values,
            None if slow == NONE else int(slow),
            None if skip == NONE else int(skip),
        )

    @work(exclusive=True)
    async def run_ranks(
        self, world: int, op: str, values: list[float], slow: int | None, skip: int | None
    ) -> None:
        """Start the ranks in the sandbox (a second or two; a skipped call waits the timeout)."""
        wait = (
            " (one rank skips it: the others wait for the 2 s timeout)" if skip is not None else ""
        )
        data = await self.run_probe(
            Ranks,
            busy=f"starting {world} gloo ranks for {op}{wait}",
            hint="change the choices, then ctrl+r to run again",
            world=world,
            op=op,
            values=values,
            slow_rank=slow,
            skip_rank=skip,
        )
        if data is not None:
            self.show(data)

    def show(self, data: Ranks) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one(RanksTable).data = data
        self.query_one(RanksTimeline).data = data
        self.query_one("#ranks-why", Static).update(Text(data.explanation))
        self.query_one(
            RunStatus
        ).message = (
            f"{data.world} {data.backend} ranks · torch {data.torch_version} · ctrl+r to run again"
        )
