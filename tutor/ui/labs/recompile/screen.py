"""The recompilation lab (chapter 11): the same loop twice on the XLA device, once with the
batch sizes as they come and once padded to one size; compiles climb with every new shape in the
first and stop after the first step in the second. The probe runs on the xla runtime; elsewhere
the lab says how to get it."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button, Header, Input, Static

from tutor.probes.data_recompile import DEFAULT_SIZES, Recompile, check_sizes, parse_sizes
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.recompile.recompile_steps import CompileSteps
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

IDLE = "batch sizes, a size to pad to (blank: the largest), then ctrl+r"


def parse_pad(text: str, sizes: list[int]) -> int:
    """The size to pad to: the typed whole number, or the largest batch when blank."""
    text = text.strip()
    if not text:
        return max(sizes)
    if not text.isdigit():
        raise ValueError(f"pad to must be a whole number, not {text!r}")
    pad = int(text)
    check_sizes(sizes, pad)
    return pad


def verdict(plain: Recompile, padded: Recompile) -> Text:
    """What the two runs say side by side: compiles, and whether padding changed the losses."""
    a, b = plain.steps[-1], padded.steps[-1]
    same = all(
        abs(x.loss - y.loss) <= 1e-5 * max(1.0, abs(x.loss))
        for x, y in zip(plain.steps, padded.steps, strict=True)
    )
    out = Text()
    out.append(f"{len(plain.steps)} steps: ", style="bold")
    out.append(f"{a.uncached_compiles} compile(s) as they come, ")
    out.append(f"{b.uncached_compiles} padded to {padded.pad_to}. ")
    out.append(
        "Losses agree step by step: the padding rows weigh nothing."
        if same
        else "Losses differ between the runs.",
        style="green" if same else "bold red",
    )
    return out


class RecompileLab(LabScreen):
    """The recompilation counter. Preset keys: ``sizes`` (``3,5,7,5``) and ``pad_to``."""

    LAB = "recompile"
    CSS_PATH = Path(__file__).with_name("recompile.tcss")
    ERROR_LINE = "#recompile-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+r", "run", "Run", priority=True),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        self.sizes_text = preset.get("sizes", ",".join(map(str, DEFAULT_SIZES)))
        """The batch sizes typed."""
        self.pad_text = preset.get("pad_to", "")
        """The size to pad to, typed (blank: the largest batch)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="recompile-controls"):
            yield Input(self.sizes_text, id="recompile-sizes")
            yield Input(self.pad_text, placeholder="largest", id="recompile-pad")
            yield Button("Run", variant="primary", id="recompile-go")
        yield RunStatus(id="recompile-status")
        yield Static(id="recompile-error")
        with Horizontal(id="recompile-runs"):
            yield CompileSteps(id="recompile-plain")
            yield CompileSteps(id="recompile-padded")
        yield Static(id="recompile-verdict")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Recompilation counter"
        self.sub_title = "torch_xla compile counters after each sync (xla runtime; not a TPU)"
        self.query_one("#recompile-sizes").border_title = "batch sizes"
        self.query_one("#recompile-pad").border_title = "pad to"
        self.query_one("#recompile-plain", CompileSteps).heading = "as they come"
        self.query_one("#recompile-padded", CompileSteps).heading = "padded"
        self.query_one(RunStatus).message = IDLE
        if self.has_sandbox:
            self.action_run()

    @on(Input.Submitted)
    @on(Button.Pressed, "#recompile-go")
    def action_run(self) -> None:
        """Run the loop as the sizes come, then padded."""
        try:
            sizes = parse_sizes(self.query_one("#recompile-sizes", Input).value)
            pad = parse_pad(self.query_one("#recompile-pad", Input).value, sizes)
        except ValueError as err:
            self.show_error(str(err))
            return
        self.hide_error()
        self.run_loops(sizes, pad)

    @work(exclusive=True)
    async def run_loops(self, sizes: list[int], pad: int) -> None:
        """Both runs on the app's sandbox, each drawn as it comes back."""
        plain_view = self.query_one("#recompile-plain", CompileSteps)
        padded_view = self.query_one("#recompile-padded", CompileSteps)
        plain_view.data = padded_view.data = None
        padded_view.heading = f"padded to {pad}"
        self.query_one("#recompile-verdict", Static).update("")
        plain = await self.run_probe(
            Recompile,
            busy=f"{len(sizes)} steps as the batches come (each new shape compiles: seconds)",
            hint=IDLE,
            sizes=sizes,
        )
        if plain is None:
            return
        plain_view.data = plain
        padded = await self.run_probe(
            Recompile,
            busy=f"the same {len(sizes)} steps padded to {pad} rows",
            hint=IDLE,
            sizes=sizes,
            pad_to=pad,
        )
        if padded is not None:
            self.show(plain, padded)

    def show(self, plain: Recompile, padded: Recompile) -> None:
        """Draw both runs (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one("#recompile-plain", CompileSteps).data = plain
        padded_view = self.query_one("#recompile-padded", CompileSteps)
        padded_view.heading = f"padded to {padded.pad_to}"
        padded_view.data = padded
        self.query_one("#recompile-verdict", Static).update(verdict(plain, padded))
        self.query_one(RunStatus).message = IDLE
