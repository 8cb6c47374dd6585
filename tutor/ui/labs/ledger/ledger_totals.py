"""The ledger's totals: parameter count, bytes per dtype, optimizer state, activations."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive

from tutor.probes.data_ledger import DTYPES, Ledger, human_bytes
from tutor.ui.widgets.panels import Padded


class LedgerTotals(Padded):
    """Totals of one :class:`Ledger`, as a two-column grid."""

    ledger: reactive[Ledger | None] = reactive(None, layout=True)
    """the ledger to total (None: nothing counted yet)."""

    def render(self) -> Table | Text:
        """The totals grid."""
        data = self.ledger
        if data is None:
            return Text("type a module and press ctrl+r", style="italic")
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_row("parameters", Text(f"{data.total:,}", style="bold"))
        if data.trainable != data.total:
            grid.add_row("trainable", f"{data.trainable:,}")
        grid.add_row("buffers", f"{data.buffers:,} ({human_bytes(data.buffer_bytes)})")
        for name in DTYPES:
            grid.add_row(name, human_bytes(data.bytes[name]))
            if name == "float32":
                grid.add_row("  in bytes", f"{data.bytes[name]:,} B")
        grid.add_row("grads f32", human_bytes(data.grad_bytes))
        grid.add_row("Adam 2×f32", human_bytes(data.adam_bytes))
        if data.activation_bytes is not None and data.input_shape is not None:
            shape = "×".join(str(d) for d in [data.batch, *data.input_shape])
            grid.add_row("activations", human_bytes(data.activation_bytes))
            grid.add_row("  for input", shape)
        return grid
