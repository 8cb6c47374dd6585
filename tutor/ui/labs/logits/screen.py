"""Lab: cross-entropy on logits. Move the logits, pick the target, flip "softmax first".

Every number comes from ``tutor.probes.logits:logits`` run in the sandbox: softmax, the loss,
and its gradient by autograd, both the right way and with softmax applied first.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Header, Input, Label, Static

from tutor.probes.data_logits import LogitsResult, parse_logits
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.logits.logits_bars import LogitsBars
from tutor.ui.labs.logits.logits_summary import LogitsSummary
from tutor.ui.labs.logits.logits_sweep import LogitsSweep
from tutor.ui.widgets.key_footer import KeyFooter

SETTLE = 0.05
"""seconds to wait for more key presses before asking the sandbox (a burst costs one run)."""


class LogitsLab(LabScreen):
    """Logits as bars of probability, with the loss and its gradient.

    Preset keys: ``logits`` (e.g. ``"2, 1, 0.1"``), ``target`` (a class index),
    ``softmax_first`` (``"1"`` to start with the bug switched on).
    """

    LAB = "logits"
    CSS_PATH = Path(__file__).with_name("logits.tcss")
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("f", "toggle_softmax", "Softmax first"),
        Binding("slash", "edit", "Type logits"),
    ]

    def __init__(
        self, preset: dict[str, str] | None = None, *, result: LogitsResult | None = None
    ) -> None:
        """``result``: a recorded answer to show at start instead of asking the sandbox."""
        super().__init__()
        preset = dict(preset or {})
        self.recorded = result
        if result is not None:
            preset = {
                "logits": ", ".join(f"{z:g}" for z in result.logits),
                "target": str(result.target),
                "softmax_first": "1" if result.active == "softmax_first" else "",
            }
        self.preset_error = ""
        try:
            self.logits = parse_logits(preset.get("logits", "2, 1, 0.1"))
        except ValueError as err:
            self.preset_error, self.logits = str(err), [2.0, 1.0, 0.1]
        """the logits being shown."""
        target = preset.get("target", "0")
        self.target = int(target) if target.isdigit() and int(target) < len(self.logits) else 0
        """the target class."""
        self.softmax_first = preset.get("softmax_first", "") in ("1", "true", "yes")
        """whether softmax is applied before CrossEntropyLoss (the bug)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="logits-controls"):
            yield Label("logits")
            yield Input(self._logits_text(), compact=True, id="logits-input")
            yield Static(id="logits-mode")
        yield LogitsBars(id="logits-bars")
        yield LogitsSummary(id="logits-summary")
        yield LogitsSweep(id="logits-sweep")
        yield Static(self.preset_error, id="logits-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = self.lab.title
        self.query_one(LogitsBars).border_title = "classes"
        self.query_one(LogitsSummary).border_title = "cross-entropy, two ways"
        self.query_one(LogitsBars).focus()
        self._show_mode()
        if self.recorded is None:
            self.compute(settle=False)
        else:
            self.show_result(self.recorded)

    def _logits_text(self) -> str:
        return ", ".join(f"{z:g}" for z in self.logits)

    def _show_mode(self) -> None:
        mode = "softmax, then CE (bug)" if self.softmax_first else "CE on raw logits"
        self.query_one("#logits-mode", Static).update(f"target {self.target} · {mode}")

    @work(exclusive=True)
    async def compute(self, settle: bool = True) -> None:
        """Ask the sandbox for the current logits (after a short pause that absorbs key bursts)."""
        if settle:
            await asyncio.sleep(SETTLE)
        status = self.query_one("#logits-status", Static)
        data, error = await self.ask(
            LogitsResult,
            logits=list(self.logits),
            target_class=self.target,
            softmax_first=self.softmax_first,
        )
        if data is None:
            status.set_class(True, "-error")
            status.update(Text(error))
            return
        self.show_result(data)
        status.set_class(bool(self.preset_error), "-error")
        status.update(Text(self.preset_error))  # a bad preset is reported once, over the fallback
        self.preset_error = ""

    def show_result(self, data: LogitsResult) -> None:
        """Draw ``data`` in the bars and the summary."""
        self.query_one(LogitsBars).result = data
        self.query_one(LogitsSummary).result = data
        self.query_one(LogitsSweep).show(data)

    @on(LogitsBars.Nudged)
    def _nudged(self, event: LogitsBars.Nudged) -> None:
        value = round(self.logits[event.index] + event.delta, 6)
        self.logits[event.index] = max(-1e4, min(1e4, value))
        self.query_one("#logits-input", Input).value = self._logits_text()
        self.compute()

    @on(LogitsBars.TargetPicked)
    def _target(self, event: LogitsBars.TargetPicked) -> None:
        self.target = event.index
        self._show_mode()
        self.compute()

    @on(Input.Submitted, "#logits-input")
    def _typed(self, event: Input.Submitted) -> None:
        status = self.query_one("#logits-status", Static)
        try:
            self.logits = parse_logits(event.value)
        except ValueError as err:
            status.set_class(True, "-error")
            status.update(Text(str(err)))
            return
        self.target = min(self.target, len(self.logits) - 1)
        bars = self.query_one(LogitsBars)
        bars.selected = min(bars.selected, len(self.logits) - 1)
        bars.focus()
        self._show_mode()
        self.compute(settle=False)

    def action_toggle_softmax(self) -> None:
        """Switch softmax-before-CrossEntropyLoss on or off."""
        self.softmax_first = not self.softmax_first
        self._show_mode()
        self.compute(settle=False)

    def action_edit(self) -> None:
        """Focus the logits input to type a list."""
        self.query_one("#logits-input", Input).focus()
