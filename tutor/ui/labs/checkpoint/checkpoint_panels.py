"""The three panels of the device & checkpoint lab: (a) a device mismatch and its fix,
(b) a state_dict round trip, (c) what pickling a whole model records and how it breaks."""

from __future__ import annotations

from typing import TypeVar

from rich.console import Group, RenderableType
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from tutor.probes.data_checkpoint import DeviceDemo, Failure, PickledModel, RoundTrip
from tutor.ui.widgets.panels import DataStatic


def code(source: str, dark: bool = True) -> Syntax:
    """Python source, highlighted on the terminal's own background in a light or dark theme."""
    theme = "monokai" if dark else "default"
    return Syntax(source.rstrip("\n"), "python", theme=theme, background_color="default")


D = TypeVar("D")


class Panel(DataStatic[D]):
    """A panel that draws one result, highlighting code to suit the app's theme."""

    def code(self, source: str) -> Syntax:
        """``source`` highlighted for the current theme."""
        return code(source, self.app.current_theme.dark)


def failed(f: Failure | None, lead: str = "→ ") -> Text:
    """A real exception as red text (or a plain 'no error')."""
    if f is None:
        return Text(lead + "no error", style="green")
    return Text.assemble((lead, "dim"), (f"{f.type}: ", "bold red"), (f.message, "red"))


def key_line(f: Failure | None) -> Failure | None:
    """The weights_only refusal cut down to its key line ("Unsupported global ...")."""
    if f is None:
        return None
    line = next((x.strip() for x in f.message.splitlines() if "Unsupported global" in x), None)
    return (
        Failure(type=f.type, message=line.removeprefix("WeightsUnpickler error: ")) if line else f
    )


def note(text: str) -> Text:
    return Text(text, style="italic dim")


class DevicePanel(Panel[DeviceDemo]):
    """(a) A model on ``meta``, an input on ``cpu``: the real error, then the fix."""

    def draw(self, d: DeviceDemo) -> RenderableType:
        parts: list[RenderableType] = [
            self.code(d.code),
            Text(f"model on {d.model_device}, input on {d.input_device}:", style="bold"),
            failed(d.error),
            Text("\nthe fix: move the input to where the model lives", style="bold"),
            self.code(d.fix_code),
            Text(f"→ out has shape {tuple(d.fix_shape)} on {d.fix_device} ✓", style="green"),
            Text("\nthe other direction does not work for meta:", style="bold"),
            self.code(d.model_to_code),
            failed(d.model_to),
            note(
                "\nEvery op needs all its tensors on one device. meta tensors have shapes but no "
                "data, so they reproduce the mismatch on any machine."
            ),
        ]
        return Group(*parts)


class RoundTripPanel(Panel[RoundTrip]):
    """(b) ``state_dict`` saved, inspected, and loaded back with ``weights_only=True``."""

    def draw(self, r: RoundTrip) -> RenderableType:
        table = Table(box=None, padding=(0, 2), header_style="bold")
        for column in ("key", "shape", "dtype", "numel"):
            table.add_column(column)
        for e in r.entries:
            table.add_row(
                e.key, str(tuple(e.shape)), e.dtype.removeprefix("torch."), f"{e.numel:,}"
            )
        ok = Text.assemble(
            ("→ ", "dim"),
            f"missing keys: {r.missing_keys or 'none'} · unexpected keys: {r.unexpected_keys or 'none'} · ",
            (
                "every tensor equal ✓" if r.equal else "tensors DIFFER ✗",
                "green" if r.equal else "red",
            ),
            " · ",
            (
                "same outputs ✓" if r.outputs_equal else "outputs DIFFER ✗",
                "green" if r.outputs_equal else "red",
            ),
        )
        parts: list[RenderableType] = [
            self.code(f"model = {r.model}\n{r.save_code}"),
            Text(
                f"→ {r.file_name}: {r.file_bytes:,} bytes on disk for {r.tensor_bytes:,} bytes of tensors"
            ),
            table,
            Text.assemble(("zip archive: ", "dim"), ", ".join(r.archive)),
            Text.assemble(("its pickle references only: ", "dim"), (", ".join(r.globals), "bold")),
            self.code(f"fresh = {r.model}\n{r.load_code}"),
            ok,
            note("\nA state_dict is tensors by name: any class with the same keys can load it."),
        ]
        return Group(*parts)


class PickledPanel(Panel[PickledModel]):
    """(c) ``torch.save(model)``: the class path it records, and three ways loading fails."""

    def draw(self, p: PickledModel) -> RenderableType:
        refs = Text("the pickle references: ", style="dim")
        for k, name in enumerate(p.globals):
            refs.append(", " if k else "")
            refs.append(name, style="bold yellow" if name == p.class_path else "")
        parts: list[RenderableType] = [
            Text("# mymodels.py", style="dim"),
            self.code(p.source),
            self.code("torch.save(model, path)"),
            Text(f"→ {p.file_bytes:,} bytes; archive: {', '.join(p.archive)}"),
            refs,
            Text.assemble(
                "so loading imports ",
                (p.class_path, "bold yellow"),
                " again, exactly as named; unchanged it works: ",
                ("✓" if p.loads_unchanged else "✗", "green" if p.loads_unchanged else "red"),
            ),
            Text("\ntorch.load(path, weights_only=True)", style="bold"),
            failed(key_line(p.weights_only)),
            Text("\nafter renaming the class (TinyNet → TinyClassifier):", style="bold"),
            failed(p.renamed),
            Text(
                "\nafter renaming an attribute (self.fc → self.head), then model(x):", style="bold"
            ),
            Text(
                "→ the load itself worked" if p.changed_loaded else "→ the load failed", style="dim"
            ),
            failed(p.changed),
            note("\nSave model.state_dict() instead, and keep the class in your code."),
        ]
        return Group(*parts)
