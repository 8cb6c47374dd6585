"""A runnable lesson snippet: the code, its recorded output, and the live output beside it.

The recorded output is folded until the snippet is run or the learner asks for it (``o`` in
the lesson), so it does not answer the "predict before you run" question on its own; a
preference (``O``) shows every recording from the start."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from tutor.content.lesson_outputs import normalise, recorded_output
from tutor.ui.widgets.wrapped_code import WrappedCode

if TYPE_CHECKING:
    from textual.events import Click

    from tutor.sandbox.result import RunResult


class Outputs(Horizontal):
    """The recorded and the live output. Asked to stay in view (``follow``), it scrolls itself
    into view again when it is next laid out at a new size: a result drawn into it grows it
    only on the next layout, after a scroll asked for at once has used the old size."""

    follow = False
    """Scroll into view at the next new size (then stop)."""

    def on_resize(self) -> None:
        if self.follow:
            self.follow = False
            self.scroll_visible(animate=False)


class SnippetView(Vertical, can_focus=True):
    """One snippet; click ▶ run to run it in the sandbox (the lesson screen's r runs the
    snippet on screen: this one when it is focused and in view)."""

    running: reactive[bool] = reactive(False)
    """Whether a run of this snippet is in progress."""
    live: reactive[RunResult | None] = reactive(None)
    """The RunResult of the last run (None before the first)."""
    folded: reactive[bool] = reactive(True, init=False)
    """Whether the recorded output is folded away (until the snippet runs or it is asked for)."""

    @dataclass
    class RunRequested(Message):
        """The learner asked to run snippet ``index``."""

        index: int

    def __init__(self, index: int, code: str, recorded: str | None, *, folded: bool = True) -> None:
        super().__init__(classes="snippet")
        self.index = index
        self.code = code
        self.recorded = recorded
        self.set_reactive(SnippetView.folded, folded)

    def compose(self) -> ComposeResult:
        yield Static(Text(f"▶ run (r) · snippet {self.index + 1}"), classes="snippet-head")
        yield Static(
            WrappedCode(self.code.rstrip("\n")),
            classes="snippet-code",
        )
        with Outputs(classes="snippet-outputs"):
            recorded = Static(self._recorded_text(), classes="recorded")
            recorded.border_title = "recorded"
            yield recorded
            live = Static(Text("press r to run it live", style="dim"), classes="live")
            live.border_title = "live"
            yield live

    def _recorded_text(self) -> Text:
        if self.folded:
            return Text("folded: predict, then r runs it (o shows it now)", style="dim italic")
        return Text((self.recorded or "").rstrip("\n") or "(no recorded output)")

    def watch_folded(self) -> None:
        if self.is_mounted:
            self.query_one(".recorded", Static).update(self._recorded_text())

    def reveal_outputs(self, follow: bool = True) -> None:
        """Scroll the recorded and live outputs into view (the least distance), and again once
        they have grown (``follow``: a run's result is drawn into them)."""
        outputs = self.query_one(Outputs)
        outputs.follow = follow
        outputs.scroll_visible(animate=False)

    def stop_following(self) -> None:
        """The outputs are not to be scrolled into view when they grow (the learner scrolled
        away from the snippet)."""
        self.query_one(Outputs).follow = False

    def on_click(self, event: Click) -> None:
        if getattr(event.widget, "has_class", lambda _c: False)("snippet-head"):
            self.post_message(self.RunRequested(self.index))

    def action_run(self) -> None:
        self.post_message(self.RunRequested(self.index))

    def watch_running(self, running: bool) -> None:
        if running:
            self._live(Text("running… (escape cancels)", style="italic"), "live")

    def watch_live(self, result: RunResult | None) -> None:
        if result is None:
            return
        self.folded = False  # run: now the recording is there to compare with
        out = recorded_output(result)
        if out is not None:
            match = out == normalise(self.recorded)
            subtitle = "matches the recorded output ✓" if match else "differs from the recording"
            self._live(
                Text(out or "(printed nothing)"), subtitle, "-match" if match else "-differs"
            )
        else:
            text = f"{result.status}: {result.reason}\n{result.stdout}".rstrip("\n")
            self._live(Text(text), "", "-differs")

    def _live(self, text: Text | Content, subtitle: str, state: str = "") -> None:
        live = self.query_one(".live", Static)
        live.update(text)
        live.border_subtitle = subtitle
        live.set_class(state == "-match", "-match")
        live.set_class(state == "-differs", "-differs")
