"""Lab: cross-entropy on logits. Move the logits, pick the target, flip "softmax first".

Every number comes from ``tutor.probes.logits:logits`` run in the sandbox: softmax, the loss,
and its gradient by autograd, both the right way and with softmax applied first.
"""

from __future__ import annotations

from typing import cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Static

from tutor.probes.data_logits import LogitsResult
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.logits.logits_bars import LogitsBars
from tutor.ui.labs.logits.logits_summary import LogitsSummary
from tutor.ui.labs.logits.logits_sweep import LogitsSweep
from tutor.ui.labs.probe_call import RunFailed


class LogitsLab(LabScreen[LogitsResult]):
    """Logits as bars of probability, with the loss and its gradient.

    Preset keys: ``logits`` (e.g. ``"2, 1, 0.1"``), ``target`` (a class index),
    ``softmax_first`` (``"1"`` to start with the bug switched on).
    """

    COMPACT = True
    ERROR_LINE = "#logits-status"
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    BINDINGS = [
        Binding("f", "toggle_softmax", "Softmax first"),
        Binding("slash", "edit", "Type logits"),
    ]

    class Recompute(Message, bubble=False):
        """Run the probe on the logits, target and mode as they are when it is handled; one
        replaces those waiting before it, so a burst of key presses costs one run."""

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, LogitsLab.Recompute)

    def __init__(
        self, preset: dict[str, str] | None = None, *, result: LogitsResult | None = None
    ) -> None:
        """``result``: a recorded answer to show at start instead of asking the sandbox."""
        if result is not None:
            preset = {
                "logits": ", ".join(f"{z:g}" for z in result.logits),
                "target": str(result.target),
                "softmax_first": "1" if result.active == "softmax_first" else "",
            }
        super().__init__(preset)
        self.recorded = result
        if not 0 <= cast("int", self.values["target"]) < len(self.logits):
            self.values["target"] = 0

    @property
    def logits(self) -> list[float]:
        """The logits being shown."""
        return cast("list[float]", self.values["logits"])

    def compose_controls(self) -> ComposeResult:
        with Horizontal(id="logits-controls"):
            yield from self.controls()
            yield Static(id="logits-mode")

    def compose_status(self) -> ComposeResult:
        yield from ()  # the status line is the last line (``compose_body``)

    def compose_body(self) -> ComposeResult:
        yield LogitsBars(id="logits-bars")
        yield LogitsSummary(id="logits-summary")
        yield LogitsSweep(id="logits-sweep")
        yield Static(id="logits-status")

    def mounted(self) -> None:
        self.query_one(LogitsBars).border_title = "classes"
        self.query_one(LogitsSummary).border_title = "cross-entropy, two ways"
        self.query_one(LogitsBars).focus()
        self._show_mode()
        if self.recorded is not None:
            self.show(self.recorded)

    def _show_mode(self) -> None:
        mode = "softmax, then CE (bug)" if self.values["softmax_first"] else "CE on raw logits"
        self.query_one("#logits-mode", Static).update(f"target {self.values['target']} · {mode}")

    def say(self, message: str, *, running: bool = False) -> None:
        """The logits lab shows no progress: every run is a fraction of a second."""

    def failure(self, err: RunFailed) -> str:
        return err.detail

    def show(self, data: LogitsResult) -> None:
        """Draw ``data`` in the bars and the summary."""
        self.hide_error()
        self.query_one(LogitsBars).result = data
        self.query_one(LogitsSummary).result = data
        self.query_one(LogitsSweep).show(data)

    def _again(self) -> None:
        """Ask for a run with the logits, target and mode as they will be."""
        self._show_mode()
        self.post_message(self.Recompute())

    def on_logits_lab_recompute(self, message: Recompute) -> None:
        """The last of a burst of changes: run the probe on them."""
        self.start(dict(self.values))

    @on(LogitsBars.Nudged)
    def _nudged(self, event: LogitsBars.Nudged) -> None:
        logits = list(self.logits)
        logits[event.index] = max(-1e4, min(1e4, round(logits[event.index] + event.delta, 6)))
        self.values["logits"] = logits
        field = self.query_one("#logits-logits", Input)
        field.value = self.lab.param("logits").text_of(logits)
        self._again()

    @on(LogitsBars.TargetPicked)
    def _target(self, event: LogitsBars.TargetPicked) -> None:
        self.values["target"] = event.index
        self._again()

    def submitted(self, event: Input.Submitted) -> None:
        """Typed logits: the target and the selection stay within the new classes."""
        try:
            logits = cast("list[float]", self.lab.param("logits").parse_text(event.value))
        except ValueError as err:
            self.show_error(str(err))
            return
        self.values["logits"] = logits
        self.values["target"] = min(cast("int", self.values["target"]), len(logits) - 1)
        bars = self.query_one(LogitsBars)
        bars.selected = min(bars.selected, len(logits) - 1)
        bars.focus()
        self._again()

    def action_toggle_softmax(self) -> None:
        """Switch softmax-before-CrossEntropyLoss on or off."""
        self.values["softmax_first"] = not self.values["softmax_first"]
        self._again()

    def action_edit(self) -> None:
        """Focus the logits input to type a list."""
        self.query_one("#logits-logits", Input).focus()
