"""The ledger's module tree as a table: each module's own parameters, with the arithmetic."""

from __future__ import annotations

from rich.text import Text

from tutor.probes.data_ledger import Layer, Ledger
from tutor.ui.widgets.panels import RowsTable


def _shape(shape: list[int] | None) -> str:
    return "×".join(str(d) for d in shape) if shape else ""


def _parent(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name else ""


def tree_prefixes(layers: list[Layer]) -> list[str]:
    """Tree guides (├─ └─ │) for each layer, from the qualified names in tree order."""
    last_child: dict[str, str] = {}
    for layer in layers:
        if layer.name:
            last_child[_parent(layer.name)] = layer.name
    prefixes = []
    for layer in layers:
        if not layer.name:
            prefixes.append("")
            continue
        parts = layer.name.split(".")
        guide = []
        for depth in range(1, len(parts)):
            ancestor = ".".join(parts[:depth])
            guide.append("  " if last_child.get(_parent(ancestor)) == ancestor else "│ ")
        guide.append("└ " if last_child.get(_parent(layer.name)) == layer.name else "├ ")
        prefixes.append("".join(guide))
    return prefixes


def _name(layer: Layer, prefix: str) -> str:
    if not layer.name:
        return layer.kind
    return f"{prefix}{layer.name.rsplit('.', 1)[-1]} {layer.kind}"


class LedgerTable(RowsTable[Ledger]):
    """One row per module (indented by depth) and one dim row per buffer it registers."""

    COLUMNS = (
        ("module", "module"),
        (Text("params", justify="right"), "params"),
        ("arithmetic", "arithmetic"),
        ("output", "output"),
    )

    def fill(self, ledger: Ledger) -> None:
        prefixes = tree_prefixes(ledger.layers)
        for i, layer in enumerate(ledger.layers):
            own = layer.params
            count = f"{own:,}" if own or not layer.formula else "0"
            if not own and layer.subtree:
                count = f"({layer.subtree:,})"
            self.add_row(
                _name(layer, prefixes[i]),
                Text(count, justify="right", style="" if own else "dim"),
                Text(layer.arithmetic or ("—" if layer.formula == "no parameters" else "")),
                _shape(layer.output_shape),
                key=f"layer-{i}",
            )
            for buf in layer.buffers:
                self.add_row(
                    Text(
                        f"{prefixes[i].replace('├', '│').replace('└', ' ')}{buf.name}",
                        style="italic dim",
                    ),
                    Text("buffer", justify="right", style="italic dim"),
                    Text(f"{_shape(buf.shape) or 'scalar'}, not a param", style="italic dim"),
                    "",
                    key=f"layer-{i}-{buf.name}",
                )
        if ledger.truncated:
            self.add_row(Text(f"… {ledger.truncated:,} more modules", style="dim"), "", "", "")
