"""The skeleton every lab screen shares, drawn from the lab's row: the title, a control per
parameter (``controls.make_control``), a status line and an error line, the lab's own body, the
footer and the keys; and the run: read the controls, make the row's call in the sandbox of its
runtime (``probe_call``), draw the data or say in one plain line what went wrong.

A lab writes only what is its own: ``compose_body`` (its widgets), ``show(data)`` (drawing the
probe's data), and where it needs them ``busy`` (what the status says while the probe runs),
``fetch`` (a run that is more than one call) and its own keys."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar, cast

from pydantic import BaseModel
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Header, Input, Label, Static, TextArea

from tutor.content.labs import Lab, Param, ProbeCall, Value, get_lab, resolve
from tutor.safe_text import strip_controls
from tutor.ui.labs.controls import make_control, read_control
from tutor.ui.labs.probe_call import (
    RunFailed,
    RuntimeMissing,
    SandboxFailed,
    call_probe,
    lab_host,
)
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

D = TypeVar("D", bound=BaseModel)


class LabScreen(Screen[None], Generic[D]):
    """A lab: its row's controls over its own body, run as its row says.

    Constructed as ``LabScreen(preset)``: a ``lab:`` link's query or a drill's ``{"setup": ...}``
    sets the parameters it names (one it cannot read keeps its default, and the error line says
    why once the lab has run)."""

    DEFAULT_CSS = """
    LabScreen .lab-controls { height: 3; }
    LabScreen .lab-controls Button { min-width: 8; }
    LabScreen .lab-status { padding: 0 1; }
    LabScreen .lab-error { color: $error; padding: 0 1; height: auto; display: none; }
    LabScreen .lab-error.-shown { display: block; }
    LabScreen .lab-about { color: $text-muted; padding: 0 1; height: auto; display: none; }
    LabScreen .lab-about.-shown { display: block; }
    """

    LAB: ClassVar[str] = ""
    """The name of the lab's row in ``tutor.content.labs`` (by default its folder's)."""
    COMPACT: ClassVar[bool] = False
    """Controls drawn without borders, each after its label."""
    RUN_KEY: ClassVar[str] = ""
    """The footer's name for ctrl+r, which runs the lab ("": the lab binds its own keys)."""
    RUN_BUTTON: ClassVar[bool] = False
    """Whether a button named ``RUN_KEY`` ends the controls row and runs the lab."""
    EDITOR: ClassVar[dict[str, Any]] = {}
    """More options for the code editors among the controls (line numbers, a theme)."""
    IDLE: ClassVar[str] = ""
    """What the status line says before the first run."""
    HINT: ClassVar[str] = ""
    """What the status line says after a run that failed."""
    ERROR_LINE: ClassVar[str] = ""
    """The selector of the ``Static`` that says what went wrong ("": ``#NAME-error``)."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        # the lab's body scrolls whatever control has focus (a button, a field, a select); an
        # editor keeps pageup/pagedown for its cursor, and ctrl+home/ctrl+end still scroll
        Binding("pagedown", "scroll_body('scroll_page_down')", "Scroll down", show=False),
        Binding("pageup", "scroll_body('scroll_page_up')", "Scroll up", show=False),
        Binding("ctrl+end", "scroll_body('scroll_end')", "Scroll to the end", show=False),
        Binding("ctrl+home", "scroll_body('scroll_home')", "Scroll to the top", show=False),
    ]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A screen in ``tutor/ui/labs/NAME/screen.py`` is the lab ``NAME`` (``LAB``), styled by
        ``NAME.tcss`` beside it when there is one (``CSS_PATH``); ``RUN_KEY`` binds ctrl+r."""
        if cls.__dict__.get("RUN_KEY"):  # ctrl+r first among the lab's own keys
            run = Binding("ctrl+r", "run", cls.RUN_KEY, priority=True)
            cls.BINDINGS = [run, *cls.__dict__.get("BINDINGS", [])]
        super().__init_subclass__(**kwargs)
        parts = cls.__module__.split(".")
        if not cls.__dict__.get("LAB") and parts[:3] == ["tutor", "ui", "labs"] and len(parts) == 5:
            cls.LAB = parts[3]
        module = sys.modules[cls.__module__].__file__
        sheet = Path(module).with_name(f"{cls.LAB}.tcss") if module and cls.LAB else None
        if "CSS_PATH" not in cls.__dict__ and sheet is not None and sheet.is_file():
            cls.CSS_PATH = sheet

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        self.preset = dict(preset or {})
        """What the lab was opened with."""
        self.values, problems = self.lab.preset(self.preset)
        """Every parameter's value, as the last run read them (or the preset set them)."""
        self.problems = list(problems.values())
        """Preset values that could not be read, to say once the lab has run."""
        self.texts = {p.key: self._preset_text(p, set(problems)) for p in self.lab.params}
        """What each field and editor shows at first."""

    def _preset_text(self, param: Param, failed: set[str]) -> str:
        text = self.preset.get(param.key) or (self.preset.get(param.also) if param.also else None)
        return text if text is not None and param.key not in failed else param.default_text

    @property
    def lab(self) -> Lab:
        """The lab's row."""
        return get_lab(self.LAB)

    @property
    def has_sandbox(self) -> bool:
        """Whether the app holds a sandbox to run probes in (tests with recorded data do not)."""
        return lab_host(self).sandbox is not None

    # --- the skeleton -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="lab-about", classes="lab-about")
        yield from self.compose_controls()
        yield from self.compose_status()
        yield from self.compose_body()
        yield KeyFooter()

    def compose_controls(self) -> ComposeResult:
        """The controls: an editor alone at full width, else one row of them (and the run
        button)."""
        controls = list(self.controls())
        if len(controls) == 1 and isinstance(controls[0], TextArea) and not self.RUN_BUTTON:
            yield controls[0]
        elif controls or self.RUN_BUTTON:
            with Horizontal(id=f"{self.LAB}-controls", classes="lab-controls"):
                yield from controls
                if self.RUN_BUTTON:
                    yield self.run_button()

    def compose_status(self) -> ComposeResult:
        """The status line (what runs, what to do next) and the error line under it."""
        yield RunStatus(id=f"{self.LAB}-status", classes="lab-status")
        yield Static(id=f"{self.LAB}-error", classes="lab-error")

    def compose_body(self) -> ComposeResult:
        """What the lab draws its data in."""
        yield from ()

    def controls(self, keys: Iterable[str] | None = None) -> Iterator[Widget]:
        """The control of each parameter the screen sets (of ``keys`` only, when given), each
        after its label when the controls are compact."""
        wanted = set(keys) if keys is not None else None
        for param in self.lab.params:
            if param.widget == "none" or (wanted is not None and param.key not in wanted):
                continue
            if self.COMPACT and param.label and param.widget in ("input", "select"):
                yield Label(param.label)
            yield self.control(param.key)

    def control(self, key: str) -> Widget:
        """A new control for the parameter ``key``."""
        param = self.lab.param(key)
        return make_control(
            param,
            self.texts[key],
            self.values[key],
            self.control_id(key),
            compact=self.COMPACT,
            editor=self.EDITOR,
        )

    def control_id(self, key: str) -> str:
        """The id of the control of the parameter ``key`` (``NAME-key``, dashes for
        underscores)."""
        return f"{self.LAB}-{key.replace('_', '-')}"

    def run_button(self, label: str = "") -> Button:
        """The button that runs the lab (``#NAME-go``)."""
        return Button(label or self.RUN_KEY, variant="primary", id=f"{self.LAB}-go")

    def on_mount(self) -> None:
        """Title, first status, the lab's own ``mounted``, and the first run when there is a
        sandbox to run in."""
        self.title = self.TITLE or self.lab.title
        self.watch(self, "sub_title", self._about)
        self.say(self.idle())
        self.mounted()
        if self.has_sandbox:
            self.action_run()

    about = ""
    """What the lab says about itself under the header (what it runs, on what data)."""

    def _about(self, sub_title: str | None) -> None:
        """A lab's sub-title goes on a line of its own that wraps, not into the header, which
        cut it at 80 columns ("eager · torch_xla · StableHLO export · to…")."""
        if sub_title:
            self.about = sub_title
            self.sub_title = None  # the header shows the app's
        line = self.query_one("#lab-about", Static)
        line.update(Text(self.about))
        line.set_class(bool(self.about), "-shown")

    def mounted(self) -> None:
        """What the lab does once its widgets are there (titles, recorded data), before the
        first run."""

    def idle(self) -> str:
        """What the status line says before the first run (``IDLE``)."""
        return self.IDLE

    # --- the run ------------------------------------------------------------------------------

    def action_run(self) -> None:
        """Run the lab with what the controls say (or say what is wrong with it)."""
        values = self.read_controls()
        if values is not None:
            self.hide_error()
            self.start(values)

    def read_controls(self) -> dict[str, Value] | None:
        """Every parameter's value, its controls read; None once the error line says what is
        wrong (a field that is no value, values the row's ``check`` refuses together)."""
        values = dict(self.values)
        for param in self.lab.params:
            found = self.query(f"#{self.control_id(param.key)}")
            if param.widget == "none" or not found:
                continue
            try:
                values[param.key] = read_control(param, found.first())
            except ValueError as err:
                self.show_error(str(err))
                return None
        try:
            self.lab.call_for(values)
        except ValueError as err:
            self.show_error(str(err))
            return None
        self.values = values
        return values

    @work(exclusive=True, group="lab")
    async def start(self, values: dict[str, Value]) -> None:
        """Run the lab on ``values`` in a worker (a newer run cancels an older one)."""
        data = await self.fetch(values)
        if data is not None:
            self.show(data)
        if self.problems and data is not None:
            self.show_error(self.problems.pop(0))  # a preset it could not read, said once

    async def fetch(self, values: dict[str, Value]) -> D | None:
        """The probe's data for ``values`` (None once the error line says why there is none)."""
        return await self.run_probe(self.lab.call_for(values), busy=self.busy(values))

    def busy(self, values: dict[str, Value]) -> str:
        """What the status line says while the probe runs on ``values``."""
        return "running in the sandbox…"

    def show(self, data: D) -> None:
        """Draw the probe's data (also used by tests with recorded data)."""
        raise NotImplementedError

    async def run_probe(self, call: ProbeCall, *, busy: str) -> D | None:
        """Make ``call`` with the status spinning and saying ``busy`` (or, while the lab's
        runtime starts, how long it has been starting); its data as the row's data model, or
        None once the error line says why (and, for a failed run, the status says ``HINT``)."""
        data_model = cast("type[D]", resolve(self.lab.data))
        self.say(busy, running=True)

        def show(line: str) -> None:
            self.say(line or busy, running=True)

        try:
            return await call_probe(lab_host(self), call, data_model, show)
        except RuntimeMissing as err:
            self.say(self.HINT, running=False)
            self.show_error(str(err))
        except SandboxFailed as err:
            self.say(busy, running=False)
            self.show_error(f"the sandbox could not run the lab: {err}")
        except RunFailed as err:
            self.say(self.HINT, running=False)
            self.show_error(self.failure(err))
        return None

    def failure(self, err: RunFailed) -> str:
        """The line that says why a run failed (the exception's message)."""
        return err.message

    def say(self, message: str, *, running: bool = False) -> None:
        """Put ``message`` on the status line (spinning while ``running``)."""
        for status in self.query(RunStatus):
            status.running, status.message = running, message

    def show_error(self, message: str) -> None:
        """Say what went wrong, in place of a traceback."""
        error = self.query_one(self.ERROR_LINE or f"#{self.LAB}-error", Static)
        error.update(Text(strip_controls(message)))  # learner text: literal, no controls
        error.set_class(True, "-shown")

    def hide_error(self) -> None:
        """Take the error away (its line, or what it said in a status line that stays)."""
        error = self.query_one(self.ERROR_LINE or f"#{self.LAB}-error", Static)
        if error.has_class("-shown"):
            error.set_class(False, "-shown")
            error.update("")

    # --- events -------------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field runs the lab."""
        self.submitted(event)

    def submitted(self, event: Input.Submitted) -> None:
        """What enter in a field does (run the lab)."""
        self.action_run()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The run button runs the lab."""
        if event.button.id == f"{self.LAB}-go":
            self.action_run()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        """An edit takes the last error away."""
        if (event.text_area.id or "").startswith(f"{self.LAB}-"):
            self.hide_error()

    def body_scroll(self) -> ScrollableContainer | None:
        """The lab's scrolling body: the first scrolling panel that has something to scroll
        (else the first one)."""
        panels = [p for p in self.query(ScrollableContainer) if p.display]
        return next((p for p in panels if p.max_scroll_y > 0), panels[0] if panels else None)

    def action_scroll_body(self, how: str) -> None:
        """Scroll the lab's body (``how``: ``scroll_page_down``, ``scroll_page_up``, ``scroll_end``,
        ``scroll_home``)."""
        body = self.body_scroll()
        if body is not None:
            getattr(body, how)(animate=False)

    def action_close(self) -> None:
        """Leave the lab."""
        self.app.pop_screen()
