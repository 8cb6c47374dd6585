"""The device & checkpoint lab: a real device mismatch (on ``meta``), a real state_dict round
trip in the sandbox's scratch dir, and a pickled model that breaks after a refactor."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import TabbedContent, TabPane

from tutor.content.labs import Value
from tutor.probes.data_checkpoint import Checkpoint
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.checkpoint.checkpoint_panels import DevicePanel, PickledPanel, RoundTripPanel

#: preset "tab" value -> tab id
TABS = {"device": "tab-device", "state_dict": "tab-state", "pickle": "tab-pickle"}


class CheckpointLab(LabScreen[Checkpoint]):
    """The device & checkpoint lab. Preset key: ``tab`` (``device``, ``state_dict``, ``pickle``)."""

    HINT = "ctrl+r runs it again"
    BINDINGS = [
        Binding("1", "tab('tab-device')", "Device"),
        Binding("2", "tab('tab-state')", "state_dict"),
        Binding("3", "tab('tab-pickle')", "Pickled model"),
        Binding("ctrl+r", "run", "Run again"),
    ]

    def compose_body(self) -> ComposeResult:
        first = TABS.get(self.preset.get("tab", ""), "tab-device")
        with TabbedContent(initial=first, id="checkpoint-tabs"):
            with TabPane("1 · device mismatch", id="tab-device"), VerticalScroll():
                yield DevicePanel(id="checkpoint-device")
            with TabPane("2 · state_dict round trip", id="tab-state"), VerticalScroll():
                yield RoundTripPanel(id="checkpoint-state")
            with TabPane("3 · torch.save(model)", id="tab-pickle"), VerticalScroll():
                yield PickledPanel(id="checkpoint-pickle")

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def busy(self, values: dict[str, Value]) -> str:
        return "saving and loading in the sandbox"

    def show(self, data: Checkpoint) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one(DevicePanel).data = data.device
        self.query_one(RoundTripPanel).data = data.round_trip
        self.query_one(PickledPanel).data = data.pickled
        self.say(f"ran for real in the sandbox with torch {data.torch_version} · 1 2 3 switch tabs")
