"""The training run's epochs as a table, and a line about the checkpoint that can resume it."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tutor.probes.data_train import CheckpointInfo, Epoch


class EpochTable(Static):
    """Epoch, learning rate, mean training loss, test accuracy and seconds of every epoch so far."""

    epochs: reactive[list[Epoch]] = reactive(list, always_update=True)
    """The epochs trained so far, first first."""
    checkpoint: reactive[CheckpointInfo | None] = reactive(None, always_update=True)
    """The checkpoint written after the last epoch (None before any run)."""

    def render_table(self) -> Group:
        """The table and the checkpoint line as one renderable."""
        table = Table(expand=True, box=None, padding=(0, 1), header_style="bold")
        for name in ("epoch", "lr", "train loss", "test acc", "sec"):
            table.add_column(name, justify="right")
        for e in self.epochs:
            table.add_row(
                str(e.epoch),
                f"{e.lr:.4g}",
                f"{e.train_loss:.4f}",
                f"{e.test_accuracy:.1%}",
                f"{e.seconds:.2f}",
            )
        c = self.checkpoint
        if c is None:
            note = Text("no checkpoint yet", style="dim")
        else:
            start = (
                f"resumed from epoch {c.resumed_from}" if c.resumed_from is not None else "fresh"
            )
            note = Text(
                f"checkpoint after epoch {c.epoch} ({c.bytes:,} bytes; {start}): "
                f"{', '.join(c.keys)}",
                style="dim",
            )
        return Group(table, note)

    def watch_epochs(self) -> None:
        self.update(self.render_table())

    def watch_checkpoint(self) -> None:
        self.update(self.render_table())
