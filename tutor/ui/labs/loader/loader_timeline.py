"""Who made which batch when: one lane per process (the main process or each worker) on a shared
clock from the loop's start, each batch a run of marks labelled by its number, the time a process
made no batch (starting up, or waiting for the loop to ask) dotted; a legend under the axis."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from tutor.probes.data_loader import LoaderRun

LABEL = 10
STYLES = ("cyan", "magenta", "green", "yellow")
IDLE = "·"
"""a moment a lane made no batch."""
LEGEND = f"█ making batch k (k shown if it fits)  {IDLE} idle: starting, waiting"


def lane_name(worker: int) -> str:
    """``-1`` -> ``main``, ``k`` -> ``worker k``."""
    return "main" if worker < 0 else f"worker {worker}"


class LoaderTimeline(Widget):
    """Lanes of batch marks scaled to the widget's width, with the time axis."""

    DEFAULT_CSS = "LoaderTimeline { height: auto; padding: 0 1; }"

    data: reactive[LoaderRun | None] = reactive(None, layout=True)
    """The epoch drawn."""

    def lanes(self) -> list[int]:
        """The worker ids that made a batch, main process first."""
        return sorted({e.worker for e in self.data.timeline}) if self.data else []

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 0 if self.data is None else len(self.lanes()) + 2

    def render(self) -> Text:
        data = self.data
        if data is None:
            return Text("")
        width = max(10, self.size.width - LABEL - 2)
        end = max((e.end_ms for e in data.timeline), default=1.0) or 1.0
        out = Text()
        for worker in self.lanes():
            lane = [(IDLE, "dim")] * width
            for e in (e for e in data.timeline if e.worker == worker):
                style = STYLES[e.batch % len(STYLES)]
                a = min(width - 1, int(e.start_ms / end * (width - 1)))
                b = max(a + 1, int(round(e.end_ms / end * (width - 1))))
                label = str(e.batch)
                for i in range(a, min(b, width)):
                    k = i - a
                    lane[i] = (label[k] if k < len(label) and b - a > len(label) else "█", style)
            out.append(lane_name(worker).ljust(LABEL), style="bold")
            for ch, style in lane:
                made = ch not in ("█", IDLE) and style != "dim"
                out.append(ch, style=f"reverse {style}" if made else style)
            out.append("\n")
        out.append(" " * LABEL + f"0 ms{f'{end:,.1f} ms':>{width - 4}}\n", style="dim")
        out.append("key".ljust(LABEL) + LEGEND, style="dim")
        return out
