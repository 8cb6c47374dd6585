"""``TimeAxis``: milliseconds laid onto the cells of a timeline's lanes; ``Timeline``: a widget
of such lanes (the rank and loader labs draw one lane per rank or worker)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, Generic, Protocol, TypeVar

from rich.text import Text
from textual.reactive import reactive

from tutor.ui.widgets.panels import Padded


class TimeAxis:
    """``width`` cells from 0 ms (the first) to the latest of ``ends`` (the last), a lane
    being ``width`` cells after its ``label``-wide name."""

    def __init__(self, ends: Iterable[float], widget_width: int, label: int) -> None:
        self.label = label
        self.width = max(10, widget_width - label - 2)
        self.end = max(ends, default=1.0) or 1.0

    def span(self, start_ms: float, end_ms: float) -> tuple[int, int]:
        """The first cell of a stretch and the cell after its last, one cell at least (the
        end may lie past the lane: draw ``range(a, min(b, width))``)."""
        a = min(self.width - 1, int(start_ms / self.end * (self.width - 1)))
        return a, max(a + 1, int(round(end_ms / self.end * (self.width - 1))))

    def ruler(self, digits: int) -> str:
        """The line under the lanes: ``0 ms`` at the left, the end at the right."""
        return " " * self.label + f"0 ms{f'{self.end:,.{digits}f} ms':>{self.width - 4}}\n"


class Timed(Protocol):
    """A stretch of time on a timeline."""

    @property
    def end_ms(self) -> float: ...


class HasTimeline(Protocol):
    """A result with stretches of time to lay out (a run's ``timeline``)."""

    @property
    def timeline(self) -> Sequence[Timed]: ...


T = TypeVar("T", bound=HasTimeline)


class Timeline(Padded, Generic[T]):
    """Lanes of marks on a ``TimeAxis`` as wide as the widget (names ``LABEL`` cells wide),
    drawn by ``draw``; empty without ``data``."""

    LABEL: ClassVar[int]

    data: reactive[T | None] = reactive(None, layout=True)
    """The result drawn."""

    def render(self) -> Text:
        if self.data is None:
            return Text("")
        ends = (e.end_ms for e in self.data.timeline)
        return self.draw(self.data, TimeAxis(ends, self.size.width, self.LABEL))

    def draw(self, data: T, axis: TimeAxis) -> Text:
        """The lanes of ``data``, its axis and legend."""
        raise NotImplementedError
