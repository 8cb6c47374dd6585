"""The rank timeline lab: 2-4 real gloo ranks run one collective in the sandbox; each rank's
tensor before and after, who waited for whom, and what a rank that skips the call does."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from tutor.content.labs import Value
from tutor.probes.data_ranks import Ranks
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.ranks.ranks_table import RanksTable
from tutor.ui.labs.ranks.ranks_timeline import RanksTimeline


class RanksLab(LabScreen[Ranks]):
    """The rank timeline. Preset keys: ``world``, ``op``, ``values`` (``1,2,3,4``), ``slow`` and
    ``skip`` (a rank number)."""

    RUN_KEY = "Run"
    RUN_BUTTON = True
    IDLE = "choose, then ctrl+r to run the ranks"
    HINT = "change the choices, then ctrl+r to run again"

    def compose_controls(self) -> ComposeResult:
        """The choices and the run button on one row, the values on a row of their own: beside
        four selects the field was a few columns wide at 80 (it showed "r")."""
        with Horizontal(id="ranks-controls", classes="lab-controls"):
            yield from self.controls(["world", "op", "slow", "skip"])
            yield self.run_button()
        with Horizontal(id="ranks-values-row", classes="lab-controls"):
            yield self.control("values")

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="ranks-main"):
            yield RanksTable(id="ranks-table")
            yield RanksTimeline(id="ranks-timeline")
            yield Static(id="ranks-why")

    def busy(self, values: dict[str, Value]) -> str:
        """Starting the ranks takes a second or two; a skipped call waits the timeout."""
        wait = ""
        if values["skip"] is not None:
            wait = f" (one rank skips it: the others wait for the {values['timeout']:g} s timeout)"
        return f"starting {values['world']} gloo ranks for {values['op']}{wait}"

    def show(self, data: Ranks) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one(RanksTable).data = data
        self.query_one(RanksTimeline).data = data
        self.query_one("#ranks-why", Static).update(Text(data.explanation))
        self.say(
            f"{data.world} {data.backend} ranks · torch {data.torch_version} · ctrl+r to run again"
        )
