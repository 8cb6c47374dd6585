"""The storage strip of the stride map: the flat storage as a row of cells, the cell under the
grid's cursor highlighted, the cells the tensor reads marked, and any tensor sharing it shown."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tutor.probes.data_stride_map import StrideMap
from tutor.ui.labs.stride.stride_grid import short

LABEL = 7


class StorageStrip(Widget):
    """Storage cells around ``focus_offset`` with their index, value and who reads them."""

    DEFAULT_CSS = """
    StorageStrip { height: auto; min-height: 5; padding: 0 1; }
    StorageStrip > .storage-strip--label { color: $text-muted; }
    StorageStrip > .storage-strip--focus { background: $accent; color: $background; text-style: bold; }
    StorageStrip > .storage-strip--used { color: $primary; }
    StorageStrip > .storage-strip--shared { color: $secondary; }
    """
    COMPONENT_CLASSES = {
        "storage-strip--label",
        "storage-strip--focus",
        "storage-strip--used",
        "storage-strip--shared",
    }

    data: reactive[StrideMap | None] = reactive(None, layout=True)
    """The stride map whose storage is drawn."""
    focus_offset: reactive[int | None] = reactive(None)
    """The storage cell of the element under the grid's cursor."""

    def render(self) -> Text:
        data = self.data
        style = self.get_component_rich_style
        if data is None:
            return Text("storage", style=style("storage-strip--label"))
        nbytes = data.storage_elements * data.element_size
        head = f"storage: {data.storage_elements:,} cells × {data.element_size} B = {nbytes:,} B"
        out = Text()
        out.append(head, style=style("storage-strip--label"))
        if not data.strip_len:
            return out
        start, stop = data.strip_start, data.strip_start + data.strip_len
        values = data.strip_values
        texts = [short(v) for v in values] if values is not None else []
        width = max(len(str(stop - 1)), *(len(t) for t in texts), 2) + 1
        visible = max(1, (self.size.width - LABEL) // width)
        focus = self.focus_offset
        first = start
        if focus is not None and start <= focus < stop:
            first = max(start, min(focus - visible // 2, stop - visible))
        cells = range(first, min(stop, first + visible))
        if first > 0 or cells.stop < data.storage_elements:
            out.append(f"  (cells {cells.start}–{cells.stop - 1} shown)")
        if focus is not None and not start <= focus < stop:
            out.append(f"  cell {focus} is outside the drawn strip")
        used = {o[-1] for o in data.offsets}
        rows: list[tuple[str, Callable[[int], str]]] = [
            ("cell", lambda k: str(k)),
            ("value", lambda k: texts[k - start] if texts else "·"),
        ]
        for name, text_of in rows:
            out.append("\n" + name.ljust(LABEL), style=style("storage-strip--label"))
            for k in cells:
                cell = text_of(k).rjust(width)
                if k == focus:
                    out.append(" " + cell[1:], style=style("storage-strip--focus"))
                else:
                    out.append(cell, style=style("storage-strip--used") if k in used else "")
        out.append("\n" + "read".ljust(LABEL), style=style("storage-strip--label"))
        for k in cells:
            out.append(
                (" " + "▀" * (width - 1)) if k in used else " " * width,
                style=style("storage-strip--used"),
            )
        for shared in data.shared[:2]:
            mine = set(shared.cells)
            out.append(
                "\n" + shared.name[: LABEL - 1].ljust(LABEL), style=style("storage-strip--shared")
            )
            for k in cells:
                out.append(
                    (" " + "━" * (width - 1)) if k in mine else " " * width,
                    style=style("storage-strip--shared"),
                )
        return out
