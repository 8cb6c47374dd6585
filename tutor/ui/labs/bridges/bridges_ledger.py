"""The two-bridge ledger's table: each path's output and whether it agrees with eager torch."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tutor.content.wording import plural
from tutor.probes.data_bridges import Bridges
from tutor.ui.widgets.panels import DataStatic

VERDICT = {
    True: Text("same as eager", style="green"),
    False: Text("DIFFERS from eager", style="bold red"),
    None: Text("could not be run", style="yellow"),
}


def rounded(value: object) -> object:
    """``value`` with every float shown to 4 significant digits."""
    if isinstance(value, float):
        return float(f"{value:.4g}")
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def short(value: object, limit: int = 60) -> str:
    """An output as one line (floats to 4 significant digits), cut to ``limit`` characters."""
    text = str(rounded(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"


class BridgesLedger(DataStatic[Bridges]):
    """Eager, torch_xla lazy, torch_xla's export and torchax: output, verdict, compiles."""

    def draw(self, data: Bridges) -> RenderableType:
        x, t = data.xla, data.torchax
        table = Table(expand=True, box=None, padding=(0, 1), header_style="bold")
        table.add_column("path", no_wrap=True)
        table.add_column("output (4 digits)", ratio=1, no_wrap=True, overflow="ellipsis")
        table.add_column("compared with eager", no_wrap=True)
        table.add_row("eager torch", short(data.eager.output), Text("the reference", style="dim"))
        table.add_row(
            "torch_xla lazy",
            short(x.output),
            VERDICT[x.matches_eager] + Text(f" · {plural(x.compiles, 'compile')}", style="dim"),
        )
        table.add_row(
            "torch_xla export",
            Text("(StableHLO, run)", style="dim"),
            VERDICT[x.export_matches_eager],
        )
        table.add_row("torchax + jax.jit", short(t.output), VERDICT[t.matches_eager])
        return table
