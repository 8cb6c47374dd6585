"""The training-run lab (chapter 12): the learner's config trains a classifier on the shipped
digits in the sandbox, one epoch per run, the loss and accuracy curves growing as each epoch comes
back; every epoch ends in a checkpoint that the next one resumes from."""

from __future__ import annotations

from typing import cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, TextArea

from tutor.content.labs import Value
from tutor.probes.data_train import Epoch, TrainRun
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.train.train_curves import AccuracyCurve
from tutor.ui.labs.train.train_table import EpochTable
from tutor.ui.widgets.loss_curve import LossCurve


class TrainLab(LabScreen[TrainRun]):
    """The training run. Preset keys: ``epochs``, ``backend`` (one of the row's backends)."""

    TITLE = "Training run: 1,797 handwritten digits"
    RUN_KEY = "Train"
    RUN_BUTTON = True
    IDLE = "edit the config, then ctrl+r trains from scratch; ctrl+e resumes from the checkpoint"
    HINT = "fix the config, then train again"
    BINDINGS = [
        Binding("ctrl+e", "resume", "Resume", priority=True),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__(preset)
        self.done: list[Epoch] = []
        """Every epoch of the current run so far."""
        self.steps: list[float] = []
        """The loss of every step of the current run so far."""
        self.state: str | None = None
        """The last checkpoint (base64), the start of the next resumed epoch."""
        self.state_config: str | None = None
        """The config that checkpoint was trained with."""
        self.fresh = True
        """Whether the next run starts from scratch (else it resumes from ``state``)."""

    def compose_controls(self) -> ComposeResult:
        """Epochs and backend, then train (from scratch) and resume."""
        with Horizontal(id="train-controls", classes="lab-controls"):
            yield from self.controls(["epochs", "backend"])
            yield self.run_button()
            yield Button("Resume", id="train-resume")

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="train-main"):
            with Vertical(id="train-left"):
                yield self.control("config")
                yield EpochTable(id="train-table")
            with Vertical(id="train-plots"):
                yield LossCurve(title="training loss per step", id="train-loss")
                yield AccuracyCurve(id="train-accuracy")

    def action_run(self) -> None:
        """Train a fresh model with the config for the chosen number of epochs."""
        self.fresh = True
        super().action_run()

    @on(Button.Pressed, "#train-resume")
    def action_resume(self) -> None:
        """Continue the current run from its checkpoint for the chosen number of epochs."""
        values = self.read_controls()
        if values is None:
            return
        if self.state is None:
            self.show_error("no checkpoint yet: train first, then resume")
            return
        if values["config"] != self.state_config:
            self.show_error(
                "the config changed since the checkpoint was saved; train starts a fresh run with it"
            )
            return
        self.hide_error()
        self.fresh = False
        self.start(values)

    async def fetch(self, values: dict[str, Value]) -> TrainRun | None:
        """Train in the sandbox, one epoch per run (all at once with ``compile``, which would
        otherwise compile again in every fresh process), drawing each epoch as it arrives."""
        epochs, backend = cast("int", values["epochs"]), str(values["backend"])
        config = cast("str", values["config"])
        if self.fresh:
            self.reset()
        chunks = [epochs] if backend == "compile" else [1] * epochs
        first = (self.done[-1].epoch if self.done else 0) + 1
        last = first + epochs - 1
        for chunk in chunks:
            upto = first + chunk - 1
            label = f"epoch {first}" if chunk == 1 else f"epochs {first}-{upto}"
            data = await self.run_probe(
                self.lab.call_for({**values, "epochs": chunk}, state=self.state),
                busy=f"training {label} of {last} ({backend})",
            )
            if data is None:
                return None
            self.add(data, config)
            first = upto + 1
        self.say(self.IDLE)
        return None  # every epoch is drawn as it came

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
