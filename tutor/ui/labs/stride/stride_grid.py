"""The logical grid of the stride map: one 2-D slice of the tensor, each cell showing its
storage offset (or value), a cursor the learner moves, and paging through leading indices."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from tutor.probes.data_stride_map import Scalar, StrideMap, index_names


def short(value: Scalar) -> str:
    """A value in at most ~7 characters."""
    if isinstance(value, bool):
        return "T" if value else "F"
    if isinstance(value, float):
        text = f"{value:.3g}"
        return text if len(text) <= 7 else f"{value:.1e}"
    return str(value)[:7]


class StrideGrid(Widget, can_focus=True):
    """A 2-D slice of the tensor's window; arrows move the cursor, [ and ] page, v toggles."""

    DEFAULT_CSS = """
    StrideGrid { height: 1fr; min-height: 4; padding: 0 1; }
    StrideGrid > .stride-grid--title { color: $text-muted; }
    StrideGrid:focus > .stride-grid--title { color: $accent; }
    StrideGrid > .stride-grid--header { color: $text-muted; }
    StrideGrid > .stride-grid--cursor { background: $accent; color: $background; text-style: bold; }
    StrideGrid > .stride-grid--alias { color: $accent; text-style: bold underline; }
    """
    COMPONENT_CLASSES = {
        "stride-grid--title",
        "stride-grid--header",
        "stride-grid--cursor",
        "stride-grid--alias",
    }
    BINDINGS = [
        Binding("up", "move(-2, -1)", "Up", show=False),
        Binding("down", "move(-2, 1)", "Down", show=False),
        Binding("left", "move(-1, -1)", "Left", show=False),
        Binding("right", "move(-1, 1)", "Right", show=False),
        Binding("right_square_bracket,pagedown", "page(1)", "Next slice"),
        Binding("left_square_bracket,pageup", "page(-1)", "Prev slice", show=False),
        Binding("v", "toggle_values", "Offsets/values"),
    ]

    data: reactive[StrideMap | None] = reactive(None)
    """The stride map drawn (set by the screen)."""
    cursor: reactive[tuple[int, ...]] = reactive(())
    """The full index of the element under the cursor."""
    show_values: reactive[bool] = reactive(False)
    """Cells show values instead of storage offsets."""

    @dataclass
    class CursorMoved(Message):
        """The cursor is on ``index``, whose element lives at storage ``offset``."""

        grid: StrideGrid
        index: tuple[int, ...]
        offset: int | None

        @property
        def control(self) -> StrideGrid:
            return self.grid

    # --- state ----------------------------------------------------------------------------

    def watch_data(self, data: StrideMap | None) -> None:
        zero = tuple(0 for _ in data.shape) if data else ()
        if self.cursor == zero:
            self._announce()
        self.cursor = zero
        self.refresh()

    def watch_cursor(self) -> None:
        self._announce()
        self.refresh()

    def watch_show_values(self) -> None:
        self.refresh()

    def _announce(self) -> None:
        if self.data is not None and self.data.numel:
            self.post_message(self.CursorMoved(self, self.cursor, self.data.offset_of(self.cursor)))

    def action_move(self, axis: int, step: int) -> None:
        """Move the cursor along the last (-1) or second-last (-2) dim, within the window."""
        data = self.data
        if data is None or not data.numel or len(data.shape) < -axis:
            return
        index = list(self.cursor)
        index[axis] = max(0, min(data.window[axis] - 1, index[axis] + step))
        self.cursor = tuple(index)

    def action_page(self, step: int) -> None:
        """Show the next (or previous) 2-D slice: the leading indices count like an odometer."""
        data = self.data
        if data is None or len(data.shape) < 3 or not data.numel:
            return
        lead = data.window[:-2]
        pages = math.prod(lead)
        flat = 0
        for i, size in zip(self.cursor[:-2], lead, strict=True):
            flat = flat * size + i
        flat = (flat + step) % pages
        new = []
        for size in reversed(lead):
            new.append(flat % size)
            flat //= size
        self.cursor = (*reversed(new), *self.cursor[-2:])

    def action_toggle_values(self) -> None:
        """Switch the cells between storage offsets and element values."""
        if self.data is not None and self.data.values is not None:
            self.show_values = not self.show_values

    # --- drawing --------------------------------------------------------------------------

    def _cell(self, data: StrideMap, index: tuple[int, ...]) -> str:
        pos = 0
        for i, w in zip(index, data.window, strict=True):
            pos = pos * w + i
        if self.show_values and data.values is not None:
            return short(data.values[pos])
        return str(data.offsets[pos][-1])

    def _title(self, data: StrideMap) -> str:
        ndim = len(data.shape)
        if ndim < 3:
            where = "t" if ndim == 0 else "t[" + ", ".join([":"] * ndim) + "]"
        else:
            where = "t[" + ", ".join([*map(str, self.cursor[:-2]), ":", ":"]) + "]"
        what = "values" if self.show_values else "offsets"
        title = f"{where} {what}"
        if ndim >= 3:
            pages = math.prod(data.window[:-2])
            flat = 0
            for i, size in zip(self.cursor[:-2], data.window[:-2], strict=True):
                flat = flat * size + i
            title += f" · slice {flat + 1}/{pages}"
        if data.elided:
            title += f" · window {'×'.join(map(str, data.window))}"
        return title

    def render(self) -> Text:
        data = self.data
        if data is None:
            return Text("type a tensor expression above and press enter", style="dim")
        if not data.numel:
            return Text(f"t has no elements: shape {tuple(data.shape)}", style="dim")
        ndim = len(data.shape)
        rows = data.window[-2] if ndim >= 2 else 1
        cols = data.window[-1] if ndim >= 1 else 1
        lead = self.cursor[:-2] if ndim >= 2 else ()

        def index(r: int, c: int) -> tuple[int, ...]:
            if ndim == 0:
                return ()
            return (*lead, r, c) if ndim >= 2 else (c,)

        cells = {(r, c): self._cell(data, index(r, c)) for r in range(rows) for c in range(cols)}
        names = index_names(ndim)
        row_name = names[-2] if ndim >= 2 else ""
        col_name = names[-1] if ndim >= 1 else ""
        width = max(3, max(len(s) for s in cells.values()), len(str(cols - 1))) + 1
        label_w = len(f"{row_name}={rows - 1} ") if ndim >= 2 else 2
        vis_rows = max(1, self.size.height - 2)
        vis_cols = max(1, (self.size.width - label_w) // width)
        cur_r = self.cursor[-2] if ndim >= 2 else 0
        cur_c = self.cursor[-1] if ndim >= 1 else 0
        r0 = 0 if cur_r < vis_rows else cur_r - vis_rows + 1
        c0 = 0 if cur_c < vis_cols else cur_c - vis_cols + 1
        cursor_offset = data.offset_of(self.cursor)
        style = self.get_component_rich_style
        out = Text()
        title = self._title(data)
        room = max(8, self.size.width - 2)
        title = title if len(title) <= room else title[: room - 1] + "…"
        out.append(title + "\n", style=style("stride-grid--title"))
        header = f"{row_name}\\{col_name}" if ndim >= 2 else col_name
        out.append(header.ljust(label_w)[:label_w], style=style("stride-grid--header"))
        for c in range(c0, min(cols, c0 + vis_cols)):
            out.append(str(c).rjust(width), style=style("stride-grid--header"))
        for r in range(r0, min(rows, r0 + vis_rows)):
            label = f"{row_name}={r}" if ndim >= 2 else ""
            out.append("\n" + label.ljust(label_w), style=style("stride-grid--header"))
            for c in range(c0, min(cols, c0 + vis_cols)):
                text = cells[(r, c)].rjust(width)
                if (r, c) == (cur_r, cur_c):
                    out.append(" " + text[1:], style=style("stride-grid--cursor"))
                elif data.offset_of(index(r, c)) == cursor_offset:
                    out.append(text, style=style("stride-grid--alias"))
                else:
                    out.append(text)
        return out
