"""Lab: the training-loop debugger. Step through the five lines, flip a bug, watch the numbers.

The whole run is computed at once in the sandbox (``tutor.probes.loop_trace:trace``) and
arrives as data; this screen plays it back line by line, step by step, or continuously.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Select, Static

from tutor.content.labs import Value
from tutor.probes.data_loop_trace import LoopTrace, diagnose
from tutor.safe_text import strip_controls
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.loop.loop_code import LoopCode
from tutor.ui.labs.loop.loop_diagnosis import LoopDiagnosis
from tutor.ui.labs.loop.loop_history import LoopHistory
from tutor.ui.labs.loop.loop_playhead import Playhead
from tutor.ui.labs.loop.loop_state import LoopState, StateView, fmt
from tutor.ui.labs.probe_call import RunFailed
from tutor.ui.widgets.loss_curve import LossCurve

FPS = 20
SPEEDS = (10, 50, 200, 500, 1000)
"""playback speeds in steps per second."""
PAGES = ("loop", "setup", "steps")
"""what the left column shows, in turn (``v``). On a short terminal: the loop and its state, the
set-up that ran first alone, the loop and its recent steps. On a tall one everything shows at
once, and ``steps`` hides the set-up to give the recent steps its room."""
TALL_PAGES = ("loop", "steps")


class LoopLab(LabScreen[LoopTrace]):
    """The five-line loop stepper with bug switches, a live loss curve and a diagnosis.

    Preset keys: ``problem`` (line|classify), ``bug`` (see ``BUGS``), ``lr``, ``steps``,
    ``play`` ("1": start playing once loaded).
    """

    COMPACT = True
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    BINDINGS = [
        Binding("n", "move('next_line')", "Line"),
        Binding("s", "move('next_step')", "Step"),
        Binding("r", "toggle_play", "Run/pause"),
        Binding("home,0", "move('rewind')", "Rewind"),
        Binding("end,e", "move('finish')", "End"),
        Binding("v", "page", "Panels"),
        Binding("plus,equals_sign", "faster", "Faster", show=False),
        Binding("minus", "slower", "Slower", show=False),
    ]

    def __init__(
        self, preset: dict[str, str] | None = None, *, trace: LoopTrace | None = None
    ) -> None:
        """``trace``: a recorded run to show instead of asking the sandbox for one."""
        preset = dict(preset or {})
        if trace is not None:
            preset.update(problem=trace.problem, bug=trace.bug)
        super().__init__(preset)
        self.trace: LoopTrace | None = trace
        """the run being played (None until the probe answers)."""
        self.chosen: tuple[object, object] | None = None
        """(problem, bug) of the run asked for or shown last."""
        self.playhead = Playhead(steps=0)
        self.playing = False
        """whether playback advances on its own."""
        self.speed = 200
        """playback speed in steps per second."""
        self.page = PAGES[0]
        """what the left column shows (one of ``PAGES``)."""

    def compose_status(self) -> ComposeResult:
        yield from ()  # the diagnosis says what went wrong; the last line, where the run is

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="loop-main"):
            with Vertical(id="loop-left"):
                yield LoopCode(id="code")
                yield Static(id="loop-setup")
                yield LoopState(id="state")
                yield LoopHistory(id="history")
            yield LossCurve(id="curve")
        yield LoopDiagnosis(id="diagnosis")
        yield Static(id="loop-status")

    def mounted(self) -> None:
        self.query_one(LoopCode).border_title = "the loop"
        self.query_one(LoopDiagnosis).border_title = "diagnosis"
        self.query_one("#loop-setup", Static).border_title = "set-up (ran first)"
        self.query_one(LoopHistory).border_title = "recent steps"
        self._ticker = self.set_interval(1 / FPS, self._tick, pause=True)
        self.query_one(LoopCode).focus()
        if self.trace is not None:
            self.show(self.trace)

    async def fetch(self, values: dict[str, Value]) -> LoopTrace | None:
        """Run the loop in the sandbox and play it back from the top."""
        self._pause()
        self.chosen = (values["problem"], values["bug"])
        self.query_one(LoopDiagnosis).finding = None
        trace = await super().fetch(values)
        if trace is None:
            self.trace = None
        return trace

    def busy(self, values: dict[str, Value]) -> str:
        return "running the loop in the sandbox…"

    def failure(self, err: RunFailed) -> str:
        return err.detail

    def say(self, message: str, *, running: bool = False) -> None:
        self.query_one("#loop-status", Static).update(message)

    def show_error(self, message: str) -> None:
        self.query_one(LoopDiagnosis).error = strip_controls(message)

    def hide_error(self) -> None:
        self.query_one(LoopDiagnosis).error = ""

    def show(self, trace: LoopTrace) -> None:
        """Play ``trace`` back from the top (and start playing if the preset says so)."""
        self.trace = trace
        self.chosen = (trace.problem, trace.bug)
        self.playhead = Playhead(steps=len(trace.steps))
        code = self.query_one(LoopCode)
        code.border_subtitle = f"{trace.criterion} · SGD lr={trace.lr:g}"
        self.query_one("#loop-setup", Static).update(
            Text("\n".join([f"# {trace.data}", *trace.setup]))
        )
        self.query_one(LoopHistory).trace = trace
        self.refresh_view()
        if self.preset.pop("play", "") == "1":
            self.action_toggle_play()

    def on_resize(self) -> None:
        """A short terminal draws the state compactly (see ``StateView.compact``)."""
        self.call_after_refresh(self.refresh_view)

    def action_page(self) -> None:
        """Show the next of ``PAGES`` (``TALL_PAGES`` on a tall terminal) in the left column."""
        pages = PAGES if self.has_class("-short") else TALL_PAGES
        self.page = (
            pages[(pages.index(self.page) + 1) % len(pages)] if self.page in pages else "loop"
        )
        for page in PAGES[1:]:
            self.set_class(self.page == page, f"-page-{page}")

    def refresh_view(self) -> None:
        """Draw the run as it stands at the playhead."""
        trace, head = self.trace, self.playhead
        if trace is None:
            return
        code = self.query_one(LoopCode)
        code.lines = trace.lines
        code.note = f"eval: {trace.eval_lines[0]} …" if trace.eval_lines else ""
        code.cursor = head.line
        step = trace.steps[head.step] if head.step >= 0 else None
        snapshot = step.states[head.line] if step is not None else trace.initial
        finished = step is not None and head.line == head.width - 1
        loss_line = next(
            (i for i, line in enumerate(trace.lines) if line.lstrip().startswith("loss")), 0
        )
        exists = step is not None and (head.step > 0 or head.line >= loss_line)
        self.query_one(LoopState).view = StateView(
            names=trace.param_names,
            kind=trace.param_kind,
            snapshot=snapshot,
            step=head.step + 1,
            steps=head.steps,
            grad_norm=step.grad_norm if step is not None else None,
            accuracy=step.accuracy if finished and step is not None else None,
            eval_accuracy=step.eval_accuracy if finished and step is not None else None,
            loss_exists=exists,
            compact=self.has_class("-short"),
        )
        names = (
            "‖param‖ · value · ‖.grad‖" if trace.param_kind == "norm" else "param · value · .grad"
        )
        self.query_one(LoopState).border_title = names if self.has_class("-short") else ""
        self.query_one(LoopHistory).completed = head.completed
        losses = trace.losses[: head.completed]
        self.query_one(LossCurve).show(losses, head.steps)
        self.query_one(LoopDiagnosis).finding = diagnose(trace, upto=head.completed)
        where = (
            "before step 1"
            if step is None
            else f"step {head.step + 1}/{head.steps}, line {head.line + 1}"
        )
        if snapshot.loss is not None or step is not None:
            where += f" · loss {fmt(snapshot.loss)}"
        if finished and step is not None and step.accuracy is not None:
            where += f" · acc {step.accuracy:.0%}"
            if step.eval_accuracy is not None:
                where += f" (eval {step.eval_accuracy:.0%})"
        mode = f"playing {self.speed} steps/s" if self.playing else "paused"
        self.query_one("#loop-status", Static).update(f"{where} · {mode}")

    def _tick(self) -> None:
        """Advance playback by one frame's worth of steps."""
        self.playhead.advance_steps(max(1, self.speed // FPS))
        if self.playhead.at_end:
            self._pause()
        self.refresh_view()

    def _pause(self) -> None:
        self.playing = False
        if hasattr(self, "_ticker"):
            self._ticker.pause()

    def action_move(self, how: str) -> None:
        """Pause, move the playhead and redraw: ``next_line`` runs one line, ``next_step`` runs
        to the end of the step, ``rewind`` goes back to before the first line, ``finish``
        jumps to the end of the run (the playhead's methods of those names)."""
        self._pause()
        getattr(self.playhead, how)()
        self.refresh_view()

    def action_toggle_play(self) -> None:
        """Play continuously, or pause."""
        if self.trace is None:
            return
        if self.playing:
            self._pause()
        else:
            if self.playhead.at_end:
                self.playhead.rewind()
            self.playing = True
            self._ticker.resume()
        self.refresh_view()

    def action_faster(self) -> None:
        """Play more steps per second."""
        self.speed = next((s for s in SPEEDS if s > self.speed), SPEEDS[-1])
        self.refresh_view()

    def action_slower(self) -> None:
        """Play fewer steps per second."""
        self.speed = next((s for s in reversed(SPEEDS) if s < self.speed), SPEEDS[0])
        self.refresh_view()

    @on(Select.Changed)
    def _changed(self) -> None:
        chosen = (
            self.query_one("#loop-problem", Select).value,
            self.query_one("#loop-bug", Select).value,
        )
        if chosen != self.chosen:
            self.action_run()

    def submitted(self, event: Input.Submitted) -> None:
        self.action_run()
        self.query_one(LoopCode).focus()
