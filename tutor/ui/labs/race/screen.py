"""The dispatch-race lab: the same work as a per-sample Python loop and as one batched op,
timed honestly in the sandbox, results compared, and the trips into torch counted."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tutor.content.labs import Value
from tutor.probes.data_race import Race
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.race.race_bars import RaceBars
from tutor.ui.labs.race.race_table import RaceTable

WHY = (
    "Every iteration of the loop goes through the interpreter and the dispatcher again; the "
    "batched op pays that toll once and spends the rest in one kernel. The gap follows the "
    "number of trips, not the arithmetic, which is the same on both sides."
)


class RaceLab(LabScreen[Race]):
    """The dispatch race. Preset keys: ``n`` (batch size), ``op`` (one of the row's ops)."""

    RUN_KEY = "Race"
    RUN_BUTTON = True

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="race-main"):
            yield Static(id="race-what")
            yield RaceBars(id="race-bars")
            yield RaceTable(id="race-table")
            yield Static(WHY, id="race-why")

    def busy(self, values: dict[str, Value]) -> str:
        return f"racing {values['op']} with N={values['n']:,} (timing takes a few seconds)"

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
        self.say("change N or the op, then enter (or ctrl+r) to race again")
