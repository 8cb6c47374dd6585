"""A status line with a spinner while a sandbox run is in progress (a long message wraps)."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from tutor.safe_text import strip_controls
from tutor.ui.widgets.inline_text import inline

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class RunStatus(Static):
    """Shows ``message``; while ``running`` it spins and says how to cancel."""

    DEFAULT_CSS = """
    RunStatus { height: auto; min-height: 1; color: $text-muted; }
    RunStatus.-running { color: $accent; }
    """

    running: reactive[bool] = reactive(False)
    """Whether a run is in progress."""
    message: reactive[str] = reactive("")
    """The text shown (next to the spinner while running)."""

    def on_mount(self) -> None:
        self._frame = 0
        self._timer = self.set_interval(0.1, self._tick, pause=True)

    def watch_running(self, running: bool) -> None:
        self.set_class(running, "-running")
        if running:
            self._timer.resume()
        else:
            self._timer.pause()
        self._draw()

    def watch_message(self) -> None:
        self._draw()

    def _tick(self) -> None:
        self._frame = (self._frame + 1) % len(FRAMES)
        self._draw()

    def _draw(self) -> None:
        spin = f"{FRAMES[self._frame]} " if self.running and hasattr(self, "_frame") else ""
        # literal, never markup; a code span in a message (`make xla-runtime`) drawn as one
        self.update(inline(strip_controls(f"{spin}{self.message}")))
