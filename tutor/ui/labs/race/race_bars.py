"""The dispatch race as two bars: the per-sample loop's median time against the batched op's,
on one linear scale, with the ratio between them."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tutor.probes.data_race import Race

LABEL = 9


def duration(seconds: float) -> str:
    """A time with a sensible unit: 12.3 µs, 4.56 ms, 1.20 s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:,.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:,.2f} ms"
    return f"{seconds:,.2f} s"


class RaceBars(Widget):
    """Two bars, loop and batched, scaled to the slower one; the ratio above them."""

    DEFAULT_CSS = """
    RaceBars { height: auto; padding: 0 1; }
    RaceBars > .race-bars--loop { color: $warning; }
    RaceBars > .race-bars--batched { color: $success; }
    RaceBars > .race-bars--label { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"race-bars--loop", "race-bars--batched", "race-bars--label"}

    data: reactive[Race | None] = reactive(None, layout=True)
    """The race result drawn."""

    def render(self) -> Text:
        data = self.data
        style = self.get_component_rich_style
        if data is None:
            return Text("press enter to race", style=style("race-bars--label"))
        out = Text()
        verdict = (
            "same result ✓"
            if data.match
            else f"DIFFERENT results ✗ (max |diff| {data.max_abs_diff:.2g})"
        )
        out.append(f"the loop took {data.ratio:,.1f}× as long", style="bold")
        out.append(f"  ·  {verdict}", style="green" if data.match else "bold red")
        slowest = max(data.loop.median_s, data.batched.median_s)
        times = [duration(s.median_s) for s in (data.loop, data.batched)]
        room = max(4, self.size.width - LABEL - max(len(t) for t in times) - 2)
        sides = [
            ("loop", data.loop, "race-bars--loop"),
            ("batched", data.batched, "race-bars--batched"),
        ]
        for (name, side, cls), shown in zip(sides, times, strict=True):
            cells = max(1, round(room * side.median_s / slowest))
            out.append("\n" + name.ljust(LABEL), style=style("race-bars--label"))
            out.append("█" * cells, style=style(cls))
            out.append(f" {shown}")
        return out
