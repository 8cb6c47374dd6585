"""`tutor lab train --json` through the real sandbox: the contract's shape, the checkpoint kept in
TUTOR_HOME, and `--resume` continuing it. Never asserts on a timing value."""

from __future__ import annotations

import json
import resource
import signal

import click
import pytest
from click.testing import CliRunner

from tutor.cli import main
from tutor.commands.labs.train import keep_checkpoint


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lab", "train", *args])
    return result.exit_code, result.stdout, result.stderr


def test_train_then_resume(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path))
    code, out, err = run("--epochs", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"dataset", "epochs", "checkpoint"}
    assert data["dataset"] == {"name": "digits", "train": 1437, "test": 360}
    assert [set(e) for e in data["epochs"]] == [
        {"epoch", "train_loss", "test_accuracy", "seconds"}
    ] * 2
    assert data["checkpoint"]["epoch"] == 2 and data["checkpoint"]["resumed_from"] is None
    saved = tmp_path / "labs" / "train-checkpoint.pt"
    assert data["checkpoint"]["path"] == str(saved)
    assert saved.stat().st_size == data["checkpoint"]["bytes"]

    code, out, err = run("--epochs", "1", "--resume")
    assert code == 0, err
    assert "digits: 1437 training and 360 test images" in out
    assert "resumed from epoch 2; checkpoint at epoch 3" in out
    assert "measured in the sandbox on this machine" in out
    assert f"saved to {saved}" in out


def test_resume_without_a_checkpoint_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path))
    code, out, err = run("--resume", "--json")
    assert code == 1
    assert "no checkpoint to resume from" in json.loads(out)["error"]


def test_a_config_that_breaks_reports_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path))
    config = tmp_path / "config.py"
    config.write_text("model = nn.Linear(64, 3)\n")
    code, _, err = run("--config", str(config), "--epochs", "1")
    assert code == 1 and "(B, 10)" in err
    assert not (tmp_path / "labs" / "train-checkpoint.pt").exists()


def test_train_on_the_xla_backend_runs_backward_in_the_runtime(tmp_path, monkeypatch, xla_runtime):
    """Every step's backward runs on the XLA device, in a run forked from the xla runtime (the
    backend names it: no `--runtime` needed)."""
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path))
    result = CliRunner().invoke(
        main, ["lab", "train", "--backend", "xla", "--epochs", "1", "--json"]
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    (epoch,) = data["epochs"]
    assert epoch["train_loss"] < 2.3 and epoch["test_accuracy"] > 0.5  # it learned something
    assert data["checkpoint"]["epoch"] == 1


def test_a_checkpoint_write_the_file_system_refuses_keeps_the_old_one(tmp_path):
    """The checkpoint is written atomically: when the write stops partway (a real file-size
    limit makes the file system refuse it), the previous checkpoint is still whole and no
    temporary is left; written in place, the old file would already be cut short."""
    path = tmp_path / "labs" / "train-checkpoint.pt"
    keep_checkpoint(b"old checkpoint", path)
    assert path.read_bytes() == b"old checkpoint"
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, hard))
    try:
        with pytest.raises(click.ClickException) as refused:
            keep_checkpoint(b"x" * 10_000, path)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
    assert str(path) in refused.value.message and "unchanged" in refused.value.message
    assert path.read_bytes() == b"old checkpoint"
    assert sorted(p.name for p in path.parent.iterdir()) == ["train-checkpoint.pt"]
    keep_checkpoint(b"new checkpoint", path)
    assert path.read_bytes() == b"new checkpoint"
    assert sorted(p.name for p in path.parent.iterdir()) == ["train-checkpoint.pt"]
