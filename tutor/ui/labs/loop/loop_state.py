"""The loop's state after the line that ran last: parameters, their gradients, the loss."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive

from tutor.probes.data_loop_trace import Snapshot
from tutor.ui.widgets.panels import Padded


@dataclass(frozen=True)
class StateView:
    """Everything the state panel draws for one moment of the run."""

    names: list[str]
    kind: str
    """``value``: parameters shown as is; ``norm``: shown by their L2 norm."""
    snapshot: Snapshot
    step: int
    """1-based step the snapshot belongs to (0: before the first step)."""
    steps: int
    grad_norm: float | None = None
    accuracy: float | None = None
    eval_accuracy: float | None = None
    loss_exists: bool = True
    """whether ``loss`` has been computed yet (False before the first step's loss line)."""
    compact: bool = False
    """a short terminal: no header row, and loss and accuracy left to the status line."""


def fmt(value: float | None) -> str:
    """A number in at most 9 characters; ``None`` (inf or NaN) spelled out."""
    if value is None:
        return "nan/inf"
    return f"{value:.5g}" if abs(value) < 1e5 else f"{value:.3e}"


class LoopState(Padded):
    """A table of parameter values (or norms) and their ``.grad`` at one moment of the run."""

    view: reactive[StateView | None] = reactive(None, layout=True)
    """what to draw (None: nothing has run)."""

    def render(self) -> Table | Text:
        """The table, or a hint when there is no run yet."""
        view = self.view
        if view is None:
            return Text("no run yet", style="italic")
        norm = view.kind == "norm"
        table = Table(
            box=None, padding=(0, 1), expand=False, show_edge=False, show_header=not view.compact
        )
        table.add_column("‖param‖" if norm else "param")
        table.add_column("value", justify="right")
        table.add_column("‖.grad‖" if norm else ".grad", justify="right")
        snap = view.snapshot
        for name, value, grad, has in zip(
            view.names, snap.params, snap.grads, snap.has_grad, strict=True
        ):
            grad_text = fmt(grad) if has else "None"
            table.add_row(name, fmt(value), grad_text)
        if view.compact:
            return table
        if snap.loss is None and not view.loss_exists:
            table.add_row("loss", Text("not yet", style="dim italic"), "", style="bold")
        else:
            table.add_row("loss", fmt(snap.loss), "", style="bold")
        if view.accuracy is not None:
            eval_text = "" if view.eval_accuracy is None else f"eval {view.eval_accuracy:.0%}"
            table.add_row("accuracy", f"{view.accuracy:.0%}", eval_text)
        return table
