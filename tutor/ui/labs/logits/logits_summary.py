"""The two ways to compute cross-entropy side by side: loss, gradient size, reachable floor."""

from __future__ import annotations

import math

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive

from tutor.probes.data_logits import LogitsResult
from tutor.ui.widgets.panels import Padded


class LogitsSummary(Padded):
    """Compares ``CrossEntropyLoss(z)`` with ``CrossEntropyLoss(softmax(z))`` for one result."""

    result: reactive[LogitsResult | None] = reactive(None, layout=True)
    """the probe's answer for the current logits."""

    def render(self) -> Table | Text:
        """Loss, |grad| and floor of both modes, then what they say."""
        r = self.result
        if r is None:
            return Text("")
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("")
        table.add_column("loss", justify="right")
        table.add_column("‖∂loss/∂z‖", justify="right")
        table.add_column(f"floor (z = ±{r.push:g})", justify="right")
        for label, mode, key in (
            ("CrossEntropyLoss(z)", r.correct, "correct"),
            ("CrossEntropyLoss(softmax(z))", r.softmax_first, "softmax_first"),
        ):
            style = "bold" if r.active == key else "dim"
            mark = "▶ " if r.active == key else "  "
            table.add_row(
                mark + label,
                f"{mode.loss:.4f}",
                f"{mode.grad_norm:.4f}",
                f"{mode.floor:.4f}",
                style=style,
            )
        ok = "✔ equals" if r.grad_matches else "✖ differs from"
        lines = Text(f"\nautograd's ∂loss/∂z {ok} p − y (max diff {r.max_diff:.1e})")
        c, s = r.correct, r.softmax_first
        if c.grad_norm > 0:
            lines.append(
                f"\nsoftmax first: the gradient is {s.grad_norm / c.grad_norm:.2f}× the right one,"
                f" and the loss can never go below {s.floor:.3f}"
            )
        classes = len(r.logits)
        lines.append(
            f"  (log(1 + {classes - 1}/e) = {math.log(1 + (classes - 1) / math.e):.3f})",
            style="dim",
        )
        grid = Table.grid()
        grid.add_row(table)
        grid.add_row(lines)
        return grid
