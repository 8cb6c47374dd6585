"""Who waited for whom: one lane per rank on a shared clock. Joining the group, working before
the collective, and time inside it (mostly waiting for the last rank) get their own marks."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size

from tutor.probes.data_ranks import Ranks
from tutor.ui.widgets.time_axis import TimeAxis, Timeline

LABEL = 8
#: event -> (mark, style); any other event is the collective itself
MARKS = {"join": ("░", "dim"), "work": ("▒", "yellow"), "skipped": ("·", "red")}
INSIDE = ("█", "cyan")


class RanksTimeline(Timeline[Ranks]):
    """Lanes of marks scaled to the widget's width, with a legend and the time axis."""

    LABEL = LABEL

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 0 if self.data is None else self.data.world + 3

    def draw(self, data: Ranks, axis: TimeAxis) -> Text:
        out = Text()
        for r in range(data.world):
            lane = [(" ", "")] * axis.width
            for e in (e for e in data.timeline if e.rank == r):
                a, b = axis.span(e.start_ms, e.end_ms)
                for i in range(a, min(b, axis.width)):
                    lane[i] = MARKS.get(e.event, INSIDE)
            out.append(f"rank {r}".ljust(LABEL), style="bold")
            for ch, style in lane:
                out.append(ch, style=style)
            out.append("\n")
        out.append(axis.ruler(0), style="dim")
        out.append(" " * LABEL)
        for name, (glyph, tone) in (("join", MARKS["join"]), ("work", MARKS["work"])):
            out.append(f"{glyph * 2} {name}  ", style=tone)
        out.append(f"{INSIDE[0] * 2} inside {data.op}  ", style=INSIDE[1])
        if data.skip_rank is not None:
            out.append(f"{MARKS['skipped'][0] * 2} skipped", style=MARKS["skipped"][1])
        return out
