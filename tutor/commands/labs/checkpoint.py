"""`tutor lab checkpoint [--json]`: the device & checkpoint lab, headless."""

from __future__ import annotations

from tutor.commands.labs.common import lab_command
from tutor.probes.data_checkpoint import Checkpoint, Failure

#: what `tutor lab checkpoint --help` says it does
HELP = "Show a device mismatch, a state_dict round trip, and why pickling a model breaks."


def said(f: Failure | None) -> str:
    """An exception as one line (or 'no error')."""
    if f is None:
        return "no error"
    lines = f.message.splitlines() or [""]
    key = next((line for line in lines if "Unsupported global" in line), lines[0])
    return f"{f.type}: {key.strip()}"


def render(data: Checkpoint) -> str:
    """The three demonstrations as text."""
    d, r, p = data.device, data.round_trip, data.pickled
    lines = [
        f"(a) model on {d.model_device}, input on {d.input_device}: {said(d.error)}",
        f"    fix: {d.fix_code.replace(chr(10), '; ')} -> shape {tuple(d.fix_shape)} on {d.fix_device}",
        f"    {d.model_to_code}: {said(d.model_to)}",
        f"(b) {r.save_code}: {r.file_name} is {r.file_bytes} bytes ({r.tensor_bytes} bytes of tensors)",
    ]
    lines += [f"    {e.key:<12} {str(tuple(e.shape)):<10} {e.dtype}" for e in r.entries]
    lines.append(f"    pickle globals: {', '.join(r.globals)}")
    lines.append(
        f"    {r.load_code}: equal={r.equal}, missing={r.missing_keys}, unexpected={r.unexpected_keys}"
    )
    lines.append(
        f"(c) torch.save(model) records the class path {p.class_path} ({p.file_bytes} bytes)"
    )
    lines.append(f"    pickle globals: {', '.join(p.globals)}")
    lines.append(f"    weights_only=True: {said(p.weights_only)}")
    lines.append(f"    after renaming the class: {said(p.renamed)}")
    lines.append(f"    after renaming an attribute, calling the model: {said(p.changed)}")
    return "\n".join(lines)


checkpoint = lab_command("checkpoint", HELP, render)
