"""The device & checkpoint lab: a real device mismatch (on ``meta``), a real state_dict round
trip in the sandbox's scratch dir, and a pickled model that breaks after a refactor."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static, TabbedContent, TabPane

from tutor.probes.data_checkpoint import Checkpoint
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.checkpoint.checkpoint_panels import DevicePanel, PickledPanel, RoundTripPanel
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

#: preset "tab" value -> tab id
TABS = {"device": "tab-device", "state_dict": "tab-state", "pickle": "tab-pickle"}


class CheckpointLab(LabScreen):
    """The device & checkpoint lab. Preset key: ``tab`` (``device``, ``state_dict``, ``pickle``)."""

    LAB = "checkpoint"
    CSS_PATH = Path(__file__).with_name("checkpoint.tcss")
    ERROR_LINE = "#checkpoint-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("1", "tab('tab-device')", "Device"),
        Binding("2", "tab('tab-state')", "state_dict"),
        Binding("3", "tab('tab-pickle')", "Pickled model"),
        Binding("ctrl+r", "rerun", "Run again"),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        self.first_tab = TABS.get((preset or {}).get("tab", ""), "tab-device")
        """The tab shown first."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield RunStatus(id="checkpoint-status")
        yield Static(id="checkpoint-error")
        with TabbedContent(initial=self.first_tab, id="checkpoint-tabs"):
            with TabPane("1 · device mismatch", id="tab-device"), VerticalScroll():
                yield DevicePanel(id="checkpoint-device")
            with TabPane("2 · state_dict round trip", id="tab-state"), VerticalScroll():
                yield RoundTripPanel(id="checkpoint-state")
            with TabPane("3 · torch.save(model)", id="tab-pickle"), VerticalScroll():
                yield PickledPanel(id="checkpoint-pickle")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Device & checkpoint"
        if self.has_sandbox:
            self.probe()

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def action_rerun(self) -> None:
        self.probe()

    @work(exclusive=True)
    async def probe(self) -> None:
        """Run all three demonstrations in the sandbox."""
        data = await self.run_probe(
            Checkpoint,
            busy="saving and loading in the sandbox",
            hint="ctrl+r runs it again",
        )
        if data is not None:
            self.show(data)

    def show(self, data: Checkpoint) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one(DevicePanel).data = data.device
        self.query_one(RoundTripPanel).data = data.round_trip
        self.query_one(PickledPanel).data = data.pickled
        self.query_one(
            RunStatus
        ).message = (
            f"ran for real in the sandbox with torch {data.torch_version} · 1 2 3 switch tabs"
        )
