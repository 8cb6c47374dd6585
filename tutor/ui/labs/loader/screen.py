"""The loader lab: a real DataLoader iterates a real Dataset of N samples in the sandbox; how
many batches it yields, how big the last one is, and which process made each batch when."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Header, Input, Select, Static

from tutor.probes.data_loader import MAX_SAMPLES, MAX_WORKERS, LoaderRun
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.loader.loader_timeline import LoaderTimeline, lane_name
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus


def parse_count(text: str, name: str, low: int, high: int) -> int | str:
    """The typed whole number, or a sentence saying what is wrong with it."""
    try:
        value = int(text.strip())
    except ValueError:
        return f"{name} must be a whole number, not {text!r}"
    if not low <= value <= high:
        return f"{name} must be {low} to {high:,}, not {value:,}"
    return value


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


class LoaderLab(LabScreen):
    """The DataLoader timeline. Preset keys: ``samples``, ``batch``, ``workers`` and
    ``drop_last`` (``1``/``true``)."""

    LAB = "loader"
    CSS_PATH = Path(__file__).with_name("loader.tcss")
    ERROR_LINE = "#loader-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+r", "run", "Run", priority=True),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        self.sample_text = preset.get("samples", "20")
        """The sample count typed."""
        self.batch_text = preset.get("batch", "3")
        """The batch size typed."""
        workers = preset.get("workers", "2")
        self.worker_count = (
            int(workers) if workers in {str(w) for w in range(MAX_WORKERS + 1)} else 2
        )
        """The worker count chosen."""
        self.drop_last = preset.get("drop_last", "").lower() in {"1", "true", "yes"}
        """Whether a short last batch is dropped."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="loader-controls"):
            yield Input(self.sample_text, id="loader-samples")
            yield Input(self.batch_text, id="loader-batch")
            workers = [(f"{w} workers", w) for w in range(MAX_WORKERS + 1)]
            yield Select(workers, value=self.worker_count, allow_blank=False, id="loader-workers")
            yield Checkbox("drop_last", self.drop_last, id="loader-drop")
            yield Button("Run", variant="primary", id="loader-go")
        yield RunStatus(id="loader-status")
        yield Static(id="loader-error")
        with VerticalScroll(id="loader-main"):
            yield Static(id="loader-summary")
            yield LoaderTimeline(id="loader-timeline")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "DataLoader timeline"
        self.query_one("#loader-samples").border_title = "samples"
        self.query_one("#loader-batch").border_title = "batch"
        self.query_one(RunStatus).message = "choose, then ctrl+r to run the loader"
        if self.has_sandbox:
            self.action_run()

    @on(Input.Submitted)
    @on(Button.Pressed, "#loader-go")
    def action_run(self) -> None:
        """Run one epoch with the choices on screen."""
        samples = parse_count(
            self.query_one("#loader-samples", Input).value, "samples", 1, MAX_SAMPLES
        )
        batch = parse_count(self.query_one("#loader-batch", Input).value, "batch", 1, MAX_SAMPLES)
        for value in (samples, batch):
            if isinstance(value, str):
                self.show_error(value)
                return
        assert isinstance(samples, int) and isinstance(batch, int)
        workers = int(self.query_one("#loader-workers", Select).value)  # type: ignore[arg-type]
        drop_last = self.query_one("#loader-drop", Checkbox).value
        self.run_loader(samples, batch, workers, drop_last)

    @work(exclusive=True)
    async def run_loader(self, samples: int, batch: int, workers: int, drop_last: bool) -> None:
        """Iterate the loader in the sandbox (workers are real processes: a second or two)."""
        data = await self.run_probe(
            LoaderRun,
            busy=f"loading {samples} samples in batches of {batch} on {workers} workers",
            hint="change the choices, then ctrl+r to run again",
            samples=samples,
            batch=batch,
            drop_last=drop_last,
            workers=workers,
        )
        if data is not None:
            self.show(data)

    def show(self, data: LoaderRun) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.hide_error()
        self.query_one("#loader-summary", Static).update(summary(data))
        self.query_one(LoaderTimeline).data = data
        self.query_one(RunStatus).message = f"torch {data.torch_version} · ctrl+r to run again"
