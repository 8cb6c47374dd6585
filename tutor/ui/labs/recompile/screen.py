"""The recompilation lab (chapter 11): the same loop twice on the XLA device, once with the
batch sizes as they come and once padded to one size; compiles climb with every new shape in the
first and stop after the first step in the second. The probe runs on the xla runtime; elsewhere
the lab says how to get it."""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from tutor.content.labs import Value
from tutor.content.wording import plural
from tutor.probes.data_recompile import Recompile
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.recompile.recompile_steps import CompileSteps


def verdict(plain: Recompile, padded: Recompile) -> Text:
    """What the two runs say side by side: compiles, and whether padding changed the losses."""
    a, b = plain.steps[-1], padded.steps[-1]
    same = all(
        abs(x.loss - y.loss) <= 1e-5 * max(1.0, abs(x.loss))
        for x, y in zip(plain.steps, padded.steps, strict=True)
    )
    out = Text()
    out.append(f"{len(plain.steps)} steps: ", style="bold")
    out.append(f"{plural(a.uncached_compiles, 'compile')} as they come, ")
    out.append(f"{b.uncached_compiles} padded to {padded.pad_to}. ")
    out.append(
        "Losses agree step by step: the padding rows weigh nothing."
        if same
        else "Losses differ between the runs.",
        style="green" if same else "bold red",
    )
    return out


class RecompileLab(LabScreen[Recompile]):
    """The recompilation counter. Preset keys: ``sizes`` (``3,5,7,5``) and ``pad_to`` (blank:
    the largest batch)."""

    RUN_KEY = "Run"
    RUN_BUTTON = True
    IDLE = HINT = "batch sizes, a size to pad to (blank: the largest), then ctrl+r"
    SUB_TITLE = "torch_xla compile counters after each sync (xla runtime; not a TPU)"

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="recompile-runs"):
            yield CompileSteps(id="recompile-plain")
            yield CompileSteps(id="recompile-padded")
        yield Static(id="recompile-verdict")

    def mounted(self) -> None:
        self.query_one("#recompile-plain", CompileSteps).heading = "as they come"
        self.query_one("#recompile-padded", CompileSteps).heading = "padded"

    async def fetch(self, values: dict[str, Value]) -> Recompile | None:
        """The loop as the batches come, drawn as it comes back, then padded (to the largest
        batch when no size is given)."""
        sizes = cast("list[int]", values["sizes"])
        pad = cast("int | None", values["pad_to"]) or max(sizes)
        plain_view = self.query_one("#recompile-plain", CompileSteps)
        padded_view = self.query_one("#recompile-padded", CompileSteps)
        plain_view.data = padded_view.data = None
        padded_view.heading = f"padded to {pad}"
        self.query_one("#recompile-verdict", Static).update("")
        plain = await self.run_probe(
            self.lab.call_for({**values, "pad_to": None}),
            busy=f"{len(sizes)} steps as the batches come (each new shape compiles: seconds)",
        )
        if plain is None:
            return None
        self.show(plain)
        return await self.run_probe(
            self.lab.call_for({**values, "pad_to": pad}),
            busy=f"the same {len(sizes)} steps padded to {pad} rows",
        )

    def show(self, data: Recompile) -> None:
        """Draw one run in its column (padded or not), and once both are there what they say
        side by side (also used by tests with recorded data)."""
        self.hide_error()
        plain = self.query_one("#recompile-plain", CompileSteps)
        padded = self.query_one("#recompile-padded", CompileSteps)
        if data.pad_to is None:
            plain.data = data
        else:
            padded.heading = f"padded to {data.pad_to}"
            padded.data = data
        if plain.data is not None and padded.data is not None:
            self.query_one("#recompile-verdict", Static).update(verdict(plain.data, padded.data))
        self.say(self.IDLE)
