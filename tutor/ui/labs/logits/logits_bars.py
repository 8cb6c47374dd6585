"""One row per class: its logit, its softmax probability as a bar, and the gradient on it."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive

from tutor.probes.data_logits import LogitsResult
from tutor.ui.widgets.panels import Padded

BAR = 20
NUDGE = 0.5


def bar(p: float, width: int = BAR) -> str:
    """``p`` in [0, 1] as a bar of ``width`` cells, eighths for the last cell."""
    eighths = round(max(0.0, min(1.0, p)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")).ljust(width, "·")


class LogitsBars(Padded, can_focus=True):
    """The classes of one row of logits. Keys: ↑/↓ pick a class, ←/→ (or -/+) move its logit,
    t makes it the target. The widget only asks: the screen changes the logits."""

    DEFAULT_CSS = """
    LogitsBars > .logits-bars--selected {
        background: $primary 25%;
    }
    LogitsBars > .logits-bars--target {
        color: $success;
        text-style: bold;
    }
    """
    COMPONENT_CLASSES = {"logits-bars--selected", "logits-bars--target"}
    BINDINGS = [
        Binding("up,k", "select(-1)", "Class ↑", show=False),
        Binding("down,j", "select(1)", "Class ↓", show=False),
        Binding("right,plus,equals_sign", "nudge(1)", "Logit +"),
        Binding("left,minus", "nudge(-1)", "Logit −"),
        Binding("t", "target", "Make target"),
    ]

    @dataclass
    class Nudged(Message):
        """The learner moved the logit of class ``index`` by ``delta``."""

        index: int
        delta: float

    @dataclass
    class TargetPicked(Message):
        """The learner made class ``index`` the target."""

        index: int

    result: reactive[LogitsResult | None] = reactive(None, layout=True)
    """the probe's answer for the current logits."""
    selected: reactive[int] = reactive(0)
    """the class the keys act on."""

    def action_select(self, step: int) -> None:
        """Move the selection up or down."""
        if self.result is not None:
            self.selected = (self.selected + step) % len(self.result.logits)

    def action_nudge(self, sign: int) -> None:
        """Ask for the selected logit to move by ±NUDGE."""
        self.post_message(self.Nudged(self.selected, sign * NUDGE))

    def action_target(self) -> None:
        """Ask for the selected class to become the target."""
        self.post_message(self.TargetPicked(self.selected))

    def render(self) -> Table | Text:
        """The class rows."""
        r = self.result
        if r is None:
            return Text("computing…", style="italic")
        shown = r.shown
        grid = Table(box=None, padding=(0, 1), show_edge=False)
        columns: tuple[tuple[str, JustifyMethod], ...] = (
            ("class", "left"),
            ("logit z", "right"),
            ("softmax p", "left"),
            ("", "right"),
            ("∂loss/∂z", "right"),
            ("p − y", "right"),
        )
        for name, justify in columns:
            grid.add_column(name, justify=justify, no_wrap=True)
        selected = self.get_component_rich_style("logits-bars--selected")
        target = self.get_component_rich_style("logits-bars--target")
        for i, (z, p, g, pmy) in enumerate(
            zip(r.logits, r.probs, shown.grad, r.p_minus_y, strict=True)
        ):
            label = Text(
                f"{'▶' if i == self.selected else ' '} {i}{' target' if i == r.target else ''}"
            )
            if i == r.target:
                label.stylize(target)
            grid.add_row(
                label,
                f"{z:+.2f}",
                Text(bar(p), style=target if i == r.target else ""),
                f"{p:.3f}",
                f"{g:+.4f}",
                f"{pmy:+.4f}",
                style=selected if i == self.selected else None,
            )
        return grid
