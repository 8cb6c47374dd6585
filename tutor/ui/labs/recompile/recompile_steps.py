"""One loop's steps as a table: the batch, the shape XLA traced, whether the step compiled a new
graph or hit the cache, and the graphs compiled so far as a bar that grows with every new shape
and stands still on a cache hit."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tutor.content.wording import plural
from tutor.probes.data_recompile import Recompile, Step

#: one mark per graph compiled so far
BAR = "█"


def events(data: Recompile) -> list[str]:
    """What each step did: ``"compiled"`` a new graph or found it in the cache (``"cached"``)."""
    out, before = [], 0
    for s in data.steps:
        out.append("compiled" if s.uncached_compiles > before else "cached")
        before = s.uncached_compiles
    return out


def bar(step: Step, compiled: bool) -> Text:
    """The compiles so far, then as a bar (the mark this step added in a warning colour): the
    count first, so a narrow column cuts the bar, never the number."""
    text = Text(f"{step.uncached_compiles:>2} ")
    old = step.uncached_compiles - (1 if compiled else 0)
    text.append(BAR * old, style="cyan")
    if compiled:
        text.append(BAR, style="bold yellow")
    return text


class CompileSteps(Static):
    """The steps of one run of the loop, padded or not."""

    data: reactive[Recompile | None] = reactive(None, always_update=True)
    """The run shown (None before it came back)."""
    heading: reactive[str] = reactive("", always_update=True)
    """What this run is ("as they come", "padded to 32")."""

    def render_steps(self) -> Group | Text:
        """The table and a one-line total."""
        data = self.data
        if data is None:
            return Text(f"{self.heading}: not run yet", style="dim")
        table = Table(expand=True, box=None, padding=(0, 1), header_style="bold")
        table.add_column("step", justify="right", no_wrap=True)
        table.add_column("batch", justify="right", no_wrap=True)
        table.add_column("traced", no_wrap=True)
        table.add_column("graph", no_wrap=True)
        table.add_column("compiles", ratio=1, no_wrap=True, overflow="ellipsis")
        for s, event in zip(data.steps, events(data), strict=True):
            compiled = event == "compiled"
            table.add_row(
                str(s.step),
                str(s.batch),
                "x".join(map(str, s.shape)),
                Text("new", style="yellow") if compiled else Text("hit", style="green"),
                bar(s, compiled),
            )
        last = data.steps[-1]
        total = Text(
            f"{plural(data.distinct_shapes, 'shape')} · {plural(last.uncached_compiles, 'compile')} · "
            f"{plural(last.cached_compiles, 'cache hit')}",
            style="bold",
        )
        return Group(Text(self.heading, style="bold underline"), table, total)

    def watch_data(self) -> None:
        self.update(self.render_steps())

    def watch_heading(self) -> None:
        self.update(self.render_steps())
