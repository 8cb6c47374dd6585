"""`tutor lab train [--epochs N] [--backend eager|compile|xla] [--resume] [--json]`: the chapter 12
training run on the shipped digits, headless.

The checkpoint the run returns (bytes, never unpickled here) is kept in the learner's data folder,
so `--resume` continues the last run exactly where it stopped. It is written atomically (a
temporary file in the same folder, flushed to disk, then renamed over the old one), so a run that
dies while saving leaves the previous checkpoint whole.
"""

from __future__ import annotations

import base64
import contextlib
import os
from pathlib import Path

import click

from tutor.commands.labs.common import echo_lab, json_option, run_lab
from tutor.commands.labs.options import click_param
from tutor.content.labs import Value, get_lab
from tutor.probes.data_train import TrainRun
from tutor.settings import home_dir


def checkpoint_path() -> Path:
    """Where the last run's checkpoint is kept."""
    return home_dir() / "labs" / "train-checkpoint.pt"


def keep_checkpoint(data: bytes, path: Path) -> None:
    """Write ``data`` to ``path`` atomically: whole into ``PATH.tmp`` beside it, fsynced, then
    renamed over ``path``, so ``path`` holds the old checkpoint or the new one, never part of
    one. Raises ClickException naming the path when the file system refuses (the old file is
    left as it was, and no temporary)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise click.ClickException(
            f"could not keep the checkpoint at {path}: {exc.strerror or exc}; "
            "the previous checkpoint, if any, is unchanged"
        ) from None
    with contextlib.suppress(OSError):  # the rename made durable, where the folder can be synced
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def render(data: TrainRun) -> str:
    """The run as a table of epochs and a line about the checkpoint."""
    d, c = data.dataset, data.checkpoint
    lines = [
        f"{d.name}: {d.train} training and {d.test} test images; backend {data.backend}; "
        f"{data.params:,} parameters",
        f"{'epoch':>5}  {'lr':>8}  {'train loss':>10}  {'test accuracy':>13}  {'seconds':>8}",
    ]
    for e in data.epochs:
        lines.append(
            f"{e.epoch:>5}  {e.lr:>8.4g}  {e.train_loss:>10.4f}  {e.test_accuracy:>13.1%}  "
            f"{e.seconds:>8.2f}"
        )
    start = f"resumed from epoch {c.resumed_from}" if c.resumed_from is not None else "fresh run"
    lines.append(f"{start}; checkpoint at epoch {c.epoch} ({c.bytes:,} bytes): {', '.join(c.keys)}")
    if c.path:
        lines.append(f"saved to {c.path} (resume with --resume)")
    lines.append("seconds: wall time measured in the sandbox on this machine")
    return "\n".join(lines)


LAB = get_lab("train")


def run(
    epochs: int, backend: str, seed: int, resume: bool, config_file: Path | None, as_json: bool
) -> None:
    """Train; with ``resume`` from the kept checkpoint (and its own config)."""
    path = checkpoint_path()
    state = None
    if resume:
        if config_file is not None:
            raise click.UsageError("--resume continues the saved run's own config; drop --config")
        if not path.is_file():
            raise click.ClickException(
                f"no checkpoint to resume from at {path}; run without --resume first"
            )
        state = base64.b64encode(path.read_bytes()).decode("ascii")
    if config_file is not None:
        config: str | None = config_file.read_text()
    else:  # a resumed run keeps its own config; a fresh one starts from the lab's
        config = None if resume else str(LAB.param("config").default)
    values: dict[str, Value] = {
        "epochs": epochs,
        "backend": backend,
        "config": config,
        "seed": seed,
    }
    data: TrainRun = run_lab(LAB, values, state=state)
    keep_checkpoint(base64.b64decode(data.state), path)
    data.checkpoint.path = str(path)
    echo_lab(data, as_json, render, face=TrainRun.contract)


#: the row's options, but the config is a file here (and ``--resume`` continues the last run)
train = click.Command(
    "train",
    callback=run,
    params=[
        *(click_param(p) for p in LAB.params if p.key != "config"),
        click.Option(["--resume"], is_flag=True, help="Continue from the last run's checkpoint."),
        click.Option(
            ["--config", "config_file"],
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help=LAB.param("config").help,
        ),
        json_option(),
    ],
    help="Train a classifier on the 1,797 shipped 8x8 digits; checkpoint, and resume on request.",
)
