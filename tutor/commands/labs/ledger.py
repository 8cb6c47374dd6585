"""`tutor lab ledger MODULE_EXPR [--batch N] [--input-shape S] [--json]`: the ledger, headless."""

from __future__ import annotations

from typing import Any

from tutor.commands.labs.common import lab_command
from tutor.probes.data_ledger import DTYPES, Ledger, human_bytes, kib

#: what `tutor lab ledger --help` says it does
HELP = "Count the parameters, buffers, bytes and activations of a module (nn, torch in scope)."


def summary(data: Ledger) -> dict[str, Any]:
    """The JSON face: the layers, totals, bytes per dtype, buffers, optimizer state, activations."""
    return {
        "kind": data.kind,
        "layers": [layer.model_dump() for layer in data.layers],
        "truncated": data.truncated,
        "total": data.total,
        "trainable": data.trainable,
        "bytes": data.bytes,
        "kib": {name: round(n / 1024, 1) for name, n in data.bytes.items()},
        "buffers": data.buffers,
        "buffer_bytes": data.buffer_bytes,
        "grad_bytes": data.grad_bytes,
        "adam_bytes": data.adam_bytes,
        "batch": data.batch,
        "input_shape": data.input_shape,
        "input_bytes": data.input_bytes,
        "activations": data.activations,
        "activation_bytes": data.activation_bytes,
        "activation_note": data.activation_note,
    }


def render(data: Ledger) -> str:
    """A readable rendering: the tree with each layer's arithmetic, then the totals."""
    out = []
    for layer in data.layers:
        name = ("  " * layer.depth) + (layer.name.rsplit(".", 1)[-1] or "(model)")
        arith = f"{layer.arithmetic} = {layer.params:,}" if layer.arithmetic else ""
        shape = f"-> {tuple(layer.output_shape)}" if layer.output_shape else ""
        line = f"{name:<20} {layer.kind:<14} {arith:<26} {shape}"
        out.append(line.rstrip())
        for buf in layer.buffers:
            out.append(
                f"{'  ' * (layer.depth + 1)}buffer {buf.name} {tuple(buf.shape)} {buf.dtype}"
            )
    if data.truncated:
        out.append(f"... and {data.truncated} more modules")
    out.append(f"parameters: {data.total:,} ({data.trainable:,} trainable)")
    out.append(
        f"buffers: {data.buffers:,} elements, {human_bytes(data.buffer_bytes)} (not parameters)"
    )
    for name in DTYPES:
        out.append(f"  as {name:<9} {data.bytes[name]:>14,} B = {kib(data.bytes[name])}")
    out.append(
        f"Adam state (two float32 moments): {data.adam_bytes:,} B = {human_bytes(data.adam_bytes)}"
    )
    if data.activation_bytes is not None and data.input_shape is not None:
        out.append(
            f"activations for a batch of {data.batch} x {tuple(data.input_shape)}: "
            f"{data.activations:,} elements = {human_bytes(data.activation_bytes)}"
        )
    if data.activation_note:
        out.append(f"activations: {data.activation_note}")
    return "\n".join(out)


ledger = lab_command("ledger", HELP, render, summary)
