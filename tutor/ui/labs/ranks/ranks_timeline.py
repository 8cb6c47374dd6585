"""Who waited for whom: one lane per rank on a shared clock. Joining the group, working before
the collective, and time inside it (mostly waiting for the last rank) get their own marks."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from tutor.probes.data_ranks import Ranks

LABEL = 8
#: event -> (mark, style); any other event is the collective itself
MARKS = {"join": ("░", "dim"), "work": ("▒", "yellow"), "skipped": ("·", "red")}
INSIDE = ("█", "cyan")


class RanksTimeline(Widget):
    """Lanes of marks scaled to the widget's width, with a legend and the time axis."""

    DEFAULT_CSS = "RanksTimeline { height: auto; padding: 0 1; }"

    data: reactive[Ranks | None] = reactive(None, layout=True)
    """The collective's result drawn."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 0 if self.data is None else self.data.world + 3

    def render(self) -> Text:
        data = self.data
        if data is None:
            return Text("")
        width = max(10, self.size.width - LABEL - 2)
        end = max((e.end_ms for e in data.timeline), default=1.0) or 1.0
        out = Text()
        for r in range(data.world):
            lane = [(" ", "")] * width
            for e in (e for e in data.timeline if e.rank == r):
                mark = MARKS.get(e.event, INSIDE)
                a = int(e.start_ms / end * (width - 1))
                b = max(a + 1, int(round(e.end_ms / end * (width - 1))))
                for i in range(a, min(b, width)):
                    lane[i] = mark
            out.append(f"rank {r}".ljust(LABEL), style="bold")
            for ch, style in lane:
                out.append(ch, style=style)
            out.append("\n")
        out.append(" " * LABEL + f"0 ms{f'{end:,.0f} ms':>{width - 4}}\n", style="dim")
        out.append(" " * LABEL)
        for name, (glyph, tone) in (("join", MARKS["join"]), ("work", MARKS["work"])):
            out.append(f"{glyph * 2} {name}  ", style=tone)
        out.append(f"{INSIDE[0] * 2} inside {data.op}  ", style=INSIDE[1])
        if data.skip_rank is not None:
            out.append(f"{MARKS['skipped'][0] * 2} skipped", style=MARKS["skipped"][1])
        return out
