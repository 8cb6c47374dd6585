"""The loader lab: a real DataLoader iterates a real Dataset of N samples in the sandbox; how
many batches it yields, how big the last one is, and which process made each batch when."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tutor.content.labs import Value
from tutor.content.wording import plural
from tutor.probes.data_loader import LoaderRun
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.loader.loader_timeline import LoaderTimeline, lane_name


def summary(data: LoaderRun) -> Text:
    """The batch arithmetic in two lines."""
    out = Text()
    out.append(f"{data.samples} samples in batches of {data.batch}", style="bold")
    out.append(f" · drop_last={data.drop_last} · {data.workers} workers\n")
    out.append(f"{data.batches} batches: {data.full} full, the last holds {data.last}")
    out.append(f" · len(loader) = {data.steps_per_epoch} steps per epoch")
    made = ", ".join(f"{lane_name(w)} {n}" for w, n in sorted(data.made_by.items()))
    if made:
        out.append(f"\nbatches made by: {made}", style="dim")
    if len(data.timeline) < data.batches:
        out.append(
            f"\nthe timeline shows the first {len(data.timeline)} of {data.batches} batches",
            style="dim",
        )
    return out


def explain(data: LoaderRun) -> str:
    """What this run shows, in its own numbers."""
    if data.workers == 0:
        who = (
            "With 0 workers the main process makes each batch when the loop asks for it: "
            "loading and the loop's own work take turns. The first batch starts after a pause: "
            "the loop's first pass pays once for making the iterator and its first call into "
            "the dataset."
        )
    else:
        one = data.workers == 1
        makes = (
            "the worker makes every batch" if one else "each worker makes whole batches, in turn"
        )
        who = (
            f"With {plural(data.workers, 'worker')} {makes}; the main process only receives "
            f"them. The {'lane starts' if one else 'lanes start'} late because workers are "
            "started when the loop begins: a cost paid every epoch, unless the loader is made "
            "with persistent_workers=True."
        )
    rest = data.samples % data.batch
    if data.drop_last and rest:
        dropped = "sample" if rest == 1 else plural(rest, "sample")
        last = f" drop_last=True dropped the last {dropped}."
    elif rest:
        last = (
            f" The last batch holds {data.last} of {data.batch}: drop_last=True would drop it, "
            f"for {plural(data.batches - 1, 'step')} an epoch."
        )
    else:
        last = f" {data.samples} is a multiple of {data.batch}: every batch is full."
    return who + last


class LoaderLab(LabScreen[LoaderRun]):
    """The DataLoader timeline. Preset keys: ``samples``, ``batch``, ``workers`` and
    ``drop_last`` (``1``/``true``)."""

    RUN_KEY = "Run"
    RUN_BUTTON = True
    IDLE = "choose, then ctrl+r to run the loader"
    HINT = "change the choices, then ctrl+r to run again"

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="loader-main"):
            yield Static(id="loader-summary")
            yield LoaderTimeline(id="loader-timeline")
            yield Static(id="loader-why")

    def busy(self, values: dict[str, Value]) -> str:
        return (
            f"loading {values['samples']} samples in batches of {values['batch']} "
            f"on {values['workers']} workers"
        )

    def show(self, data: LoaderRun) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one("#loader-summary", Static).update(summary(data))
        self.query_one(LoaderTimeline).data = data
        self.query_one("#loader-why", Static).update(Text(explain(data)))
        self.say(f"torch {data.torch_version} · ctrl+r to run again")
