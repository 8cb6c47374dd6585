"""The training-run lab (chapter 12): the learner's config trains a classifier on the shipped
digits in the sandbox, one epoch per run, the loss and accuracy curves growing as each epoch comes
back; every epoch ends in a checkpoint that the next one resumes from."""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Input, Select, Static, TextArea

from tutor.probes.data_train import BACKENDS, DEFAULT_CONFIG, Epoch, TrainRun
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.train.train_curves import AccuracyCurve
from tutor.ui.labs.train.train_table import EpochTable
from tutor.ui.widgets.code_editor import CodeEditor
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.loss_curve import LossCurve
from tutor.ui.widgets.run_status import RunStatus

MAX_EPOCHS = 50
IDLE = "edit the config, then ctrl+r trains from scratch; ctrl+e resumes from the checkpoint"


class TrainLab(LabScreen):
    """The training run. Preset keys: ``epochs``, ``backend`` (one of ``BACKENDS``)."""

    LAB = "train"
    CSS_PATH = Path(__file__).with_name("train.tcss")
    ERROR_LINE = "#train-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+r", "train", "Train", priority=True),
        Binding("ctrl+e", "resume", "Resume", priority=True),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        self.epochs_text = preset.get("epochs", "3")
        """The number of epochs asked for (as typed)."""
        backend = preset.get("backend", "eager")
        self.backend = backend if backend in BACKENDS else "eager"
        """The backend chosen."""
        self.done: list[Epoch] = []
        """Every epoch of the current run so far."""
        self.steps: list[float] = []
        """The loss of every step of the current run so far."""
        self.state: str | None = None
        """The last checkpoint (base64), the start of the next resumed epoch."""
        self.state_config: str | None = None
        """The config that checkpoint was trained with."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="train-controls"):
            yield Input(self.epochs_text, type="integer", id="train-epochs")
            options = [(name, name) for name in BACKENDS]
            yield Select(options, value=self.backend, allow_blank=False, id="train-backend")
            yield Button("Train", variant="primary", id="train-go")
            yield Button("Resume", id="train-resume")
        yield RunStatus(id="train-status")
        yield Static(id="train-error")
        with Horizontal(id="train-main"):
            with Vertical(id="train-left"):
                yield CodeEditor(DEFAULT_CONFIG, language="python", id="train-config")
                yield EpochTable(id="train-table")
            with Vertical(id="train-plots"):
                yield LossCurve(title="training loss per step", id="train-loss")
                yield AccuracyCurve(id="train-accuracy")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "Training run: 1,797 handwritten digits"
        self.query_one("#train-epochs").border_title = "epochs"
        self.query_one("#train-backend").border_title = "backend"
        self.query_one("#train-config").border_title = "config (Python)"
        self.query_one(RunStatus).message = IDLE
        if self.has_sandbox:
            self.action_train()

    def _epochs(self) -> int | None:
        text = self.query_one("#train-epochs", Input).value.strip()
        try:
            n = int(text)
        except ValueError:
            self.show_error(f"epochs must be a whole number, not {text!r}")
            return None
        if not 1 <= n <= MAX_EPOCHS:
            self.show_error(f"epochs must be between 1 and {MAX_EPOCHS}")
            return None
        return n

    @on(Input.Submitted)
    @on(Button.Pressed, "#train-go")
    def action_train(self) -> None:
        """Train a fresh model with the config for the chosen number of epochs."""
        epochs = self._epochs()
        if epochs is not None:
            self.hide_error()
            self.run_training(epochs, fresh=True)

    @on(Button.Pressed, "#train-resume")
    def action_resume(self) -> None:
        """Continue the current run from its checkpoint for the chosen number of epochs."""
        epochs = self._epochs()
        if epochs is None:
            return
        if self.state is None:
            self.show_error("no checkpoint yet: train first, then resume")
            return
        if self.query_one("#train-config", TextArea).text != self.state_config:
            self.show_error(
                "the config changed since the checkpoint was saved; train starts a fresh run with it"
            )
            return
        self.hide_error()
        self.run_training(epochs, fresh=False)

    @work(exclusive=True)
    async def run_training(self, epochs: int, *, fresh: bool) -> None:
        """Train in the sandbox, one epoch per run (all at once with ``compile``, which would
        otherwise compile again in every fresh process), drawing each epoch as it arrives."""
        config = self.query_one("#train-config", TextArea).text
        backend = str(self.query_one("#train-backend", Select).value)
        if fresh:
            self.reset()
        chunks = [epochs] if backend == "compile" else [1] * epochs
        first = (self.done[-1].epoch if self.done else 0) + 1
        last = first + epochs - 1
        for chunk in chunks:
            upto = first + chunk - 1
            label = f"epoch {first}" if chunk == 1 else f"epochs {first}-{upto}"
            data = await self.run_probe(
                TrainRun,
                busy=f"training {label} of {last} ({backend})",
                hint="fix the config, then train again",
                config=config,
                epochs=chunk,
                backend=backend,
                state=self.state,
                seed=0,
            )
            if data is None:
                return
            self.add(data, config)
            first = upto + 1
        self.query_one(RunStatus).message = IDLE

    def reset(self) -> None:
        """Forget the current run."""
        self.done, self.steps, self.state, self.state_config = [], [], None, None

    def add(self, data: TrainRun, config: str) -> None:
        """Append a run's epochs and steps to the curves and keep its checkpoint."""
        self.done = self.done + data.epochs
        self.steps = self.steps + data.steps
        self.state, self.state_config = data.state, config
        self._draw(data)

    def show(self, data: TrainRun) -> None:
        """Draw one whole run (also used by tests with recorded data)."""
        self.reset()
        self.add(data, self.query_one("#train-config", TextArea).text)

    def _draw(self, data: TrainRun) -> None:
        self.hide_error()
        per_epoch = len(data.steps) // max(len(data.epochs), 1)
        curve = self.query_one(LossCurve)
        curve.show(list(self.steps), max(len(self.steps), per_epoch * len(self.done)))
        curve.redraw_now()
        self.query_one(AccuracyCurve).show([e.test_accuracy for e in self.done])
        table = self.query_one(EpochTable)
        table.epochs = list(self.done)
        table.checkpoint = data.checkpoint
        self.sub_title = (
            f"{data.dataset.train} train / {data.dataset.test} test · {data.params:,} parameters "
            f"· {data.backend} · seconds measured in the sandbox on this machine"
        )
