"""The ledger's module tree as a table: each module's own parameters, with the arithmetic."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from tutor.probes.data_ledger import Layer, Ledger


def _shape(shape: list[int] | None) -> str:
    return "×".join(str(d) for d in shape) if shape else ""


def _name(layer: Layer) -> str:
    if not layer.name:
        return layer.kind
    return f"{'  ' * layer.depth}{layer.name.rsplit('.', 1)[-1]} {layer.kind}"


class LedgerTable(DataTable):
    """One row per module (indented by depth) and one dim row per buffer it registers."""

    def on_mount(self) -> None:
        """Set up the columns."""
        self.cursor_type = "row"
        self.zebra_stripes = True
        self.add_column("module", key="module")
        self.add_column(Text("params", justify="right"), key="params")
        self.add_column("arithmetic", key="arithmetic")
        self.add_column("output", key="output")

    def show(self, ledger: Ledger | None) -> None:
        """Fill the table from ``ledger`` (empty it when None)."""
        self.clear()
        if ledger is None:
            return
        for i, layer in enumerate(ledger.layers):
            own = layer.params
            count = f"{own:,}" if own or not layer.formula else "0"
            if not own and layer.subtree:
                count = f"({layer.subtree:,})"
            self.add_row(
                _name(layer),
                Text(count, justify="right", style="" if own else "dim"),
                Text(layer.arithmetic or ("—" if layer.formula == "no parameters" else "")),
                _shape(layer.output_shape),
                key=f"layer-{i}",
            )
            for buf in layer.buffers:
                self.add_row(
                    Text(f"{'  ' * (layer.depth + 1)}{buf.name}", style="italic dim"),
                    Text("buffer", justify="right", style="italic dim"),
                    Text(f"{_shape(buf.shape) or 'scalar'}, not a param", style="italic dim"),
                    "",
                    key=f"layer-{i}-{buf.name}",
                )
        if ledger.truncated:
            self.add_row(Text(f"… {ledger.truncated:,} more modules", style="dim"), "", "", "")
