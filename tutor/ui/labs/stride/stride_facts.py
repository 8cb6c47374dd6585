"""Text panels of the stride map: the tensor's facts, and the verdict of "try view(SHAPE)"."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tutor.probes.data_stride_map import StrideMap, ViewTry
from tutor.ui.widgets.panels import DataStatic


def shape_text(values: list[int]) -> str:
    """``(4, 2, 3)``; a one-element tuple keeps its comma."""
    return str(tuple(values))


class StrideFacts(DataStatic[StrideMap]):
    """Shape, dtype, device, strides, storage offset, element size, contiguity, shared storage."""

    def draw(self, data: StrideMap) -> RenderableType:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", no_wrap=True)
        table.add_column()
        table.add_row("shape", shape_text(data.shape))
        table.add_row("stride", shape_text(data.stride))
        table.add_row("offset", f"{data.storage_offset}  [dim]numel[/] {data.numel:,}")
        dtype = data.dtype.removeprefix("torch.")
        table.add_row("dtype", f"{dtype} · {data.element_size} B · {data.device}")
        contiguous = Text("yes", style="green") if data.contiguous else Text("no", style="yellow")
        table.add_row("contig.", contiguous)
        for shared in data.shared:
            table.add_row(
                "shares",
                Text.assemble(
                    (shared.name, "bold"),
                    f" {shape_text(shared.shape)}\nstride {shape_text(shared.stride)}",
                    f" offset {shared.storage_offset}" if shared.storage_offset else "",
                ),
            )
        parts: list[RenderableType] = [table]
        return Group(*parts)


class ViewVerdict(Static):
    """Whether ``view(SHAPE)`` worked; if not, torch's error, which dims failed, and reshape."""

    verdict: reactive[ViewTry | None] = reactive(None)
    """The view attempt shown."""

    def watch_verdict(self, v: ViewTry | None) -> None:
        if v is None:
            self.update("")
            return
        call = f"view({', '.join(map(str, v.shape))})"
        if v.ok:
            line = Text.assemble(
                (f"{call} ✓ ", "bold green"),
                f"→ shape {shape_text(v.result_shape or [])} stride "
                f"{shape_text(v.result_stride or [])}, no copy",
            )
            self.update(line)
            return
        head = Text.assemble((f"{call} ✗ ", "bold red"), (f"RuntimeError: {v.error}", "red"))
        why = Text(v.why)
        if v.reshape_ok:
            copied = "copied the data" if v.reshape_copied else "returned a view"
            why = Text.assemble(
                v.why.rsplit(". reshape", 1)[0] + ". ",
                (f"reshape({', '.join(map(str, v.shape))}) {copied}", "bold"),
                " (its storage's data_ptr "
                + ("differs)." if v.reshape_copied else "is the same)."),
            )
        self.update(Group(head, why))
