"""Who made which batch when: one lane per process (the main process or each worker) on a shared
clock from the loop's start, each batch a run of marks labelled by its number, the time a process
made no batch (starting up, or waiting for the loop to ask) dotted; a legend under the axis."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size

from tutor.probes.data_loader import LoaderRun
from tutor.ui.widgets.time_axis import TimeAxis, Timeline

LABEL = 10
STYLES = ("cyan", "magenta", "green", "yellow")
IDLE = "·"
"""a moment a lane made no batch."""
LEGEND = f"█ making batch k (k shown if it fits)  {IDLE} idle: starting, waiting"


def lane_name(worker: int) -> str:
    """``-1`` -> ``main``, ``k`` -> ``worker k``."""
    return "main" if worker < 0 else f"worker {worker}"


class LoaderTimeline(Timeline[LoaderRun]):
    """Lanes of batch marks scaled to the widget's width, with the time axis."""

    LABEL = LABEL

    def lanes(self) -> list[int]:
        """The worker ids that made a batch, main process first."""
        return sorted({e.worker for e in self.data.timeline}) if self.data else []

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 0 if self.data is None else len(self.lanes()) + 2

    def draw(self, data: LoaderRun, axis: TimeAxis) -> Text:
        out = Text()
        for worker in self.lanes():
            lane = [(IDLE, "dim")] * axis.width
            for e in (e for e in data.timeline if e.worker == worker):
                style = STYLES[e.batch % len(STYLES)]
                a, b = axis.span(e.start_ms, e.end_ms)
                label = str(e.batch)
                for i in range(a, min(b, axis.width)):
                    k = i - a
                    lane[i] = (label[k] if k < len(label) and b - a > len(label) else "█", style)
            out.append(lane_name(worker).ljust(LABEL), style="bold")
            for ch, style in lane:
                made = ch not in ("█", IDLE) and style != "dim"
                out.append(ch, style=f"reverse {style}" if made else style)
            out.append("\n")
        out.append(axis.ruler(1), style="dim")
        out.append("key".ljust(LABEL) + LEGEND, style="dim")
        return out
