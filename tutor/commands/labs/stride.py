"""`tutor lab stride EXPR [--view SHAPE] [--setup CODE] [--json]`: the stride map, headless."""

from __future__ import annotations

from tutor.commands.labs.common import lab_command
from tutor.probes.data_stride_map import StrideMap, index_names

#: what `tutor lab stride --help` says it does
HELP = "Map every element of the tensor EXPR to its place in storage."


def render(data: StrideMap) -> str:
    """A readable rendering: the facts, then the offsets of the first 2-D slice."""
    lines = [
        f"{data.expr}",
        f"  shape {tuple(data.shape)}  stride {tuple(data.stride)}  storage_offset "
        f"{data.storage_offset}",
        f"  dtype {data.dtype} ({data.element_size} B)  device {data.device}  "
        f"contiguous {data.contiguous}  storage {data.storage_elements} elements",
        f"  offset({', '.join(index_names(len(data.shape)))}) = {data.formula()}",
    ]
    for shared in data.shared:
        lines.append(
            f"  shares storage with {shared.name}: shape {tuple(shared.shape)} "
            f"stride {tuple(shared.stride)} offset {shared.storage_offset}"
        )
    lead = len(data.shape) - 2
    rows = [o for o in data.offsets if all(i == 0 for i in o[: max(lead, 0)])]
    if rows:
        title = "storage offset of each element"
        if lead > 0:
            title += f" of [{', '.join(['0'] * lead)}, :, :]"
        lines.append(f"  {title}:")
        width = max(len(str(o[-1])) for o in rows) + 1
        if len(data.shape) < 2:
            lines.append("   " + "".join(str(o[-1]).rjust(width) for o in rows))
        else:
            for r in range(data.window[-2]):
                cells = [o[-1] for o in rows if o[-3] == r]
                lines.append("   " + "".join(str(c).rjust(width) for c in cells))
    if data.elided:
        lines.append(f"  (showing the window {data.window} of {data.numel} elements)")
    if data.view is not None:
        v = data.view
        verdict = "works" if v.ok else f"fails: {v.error}"
        lines.append(f"  view({', '.join(map(str, v.shape))}) {verdict}")
        lines.append(f"  {v.why}")
    return "\n".join(lines)


stride = lab_command("stride", HELP, render)
