"""The training-run lab driven through the real sandbox (Pilot): epochs arrive one run at a
time and grow both curves, resume continues from the checkpoint, an edited config must start
fresh, and a broken config says why. Its looks from a recorded run (snapshot). No assertion reads
a timing value."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, Static, TextArea

from labs.harness import DATA, LabApp, settle
from tutor.probes.data_train import TrainRun
from tutor.ui.labs.train.screen import TrainLab
from tutor.ui.labs.train.train_curves import AccuracyCurve
from tutor.ui.labs.train.train_table import EpochTable
from tutor.ui.widgets.loss_curve import LossCurve
from tutor.ui.widgets.run_status import RunStatus

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")

RECORDING = DATA / "train_default.json"


async def test_train_lab_end_to_end(sandbox):
    app = LabApp(TrainLab({"epochs": "2"}), sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        table = lab.query_one(EpochTable)
        assert [e.epoch for e in table.epochs] == [1, 2]
        assert table.checkpoint is not None and table.checkpoint.epoch == 2
        assert table.checkpoint.resumed_from == 1  # epoch 2 ran from epoch 1's checkpoint
        assert len(lab.query_one(LossCurve).plotted) == 2 * 45
        accuracy = lab.query_one(AccuracyCurve).plotted
        assert accuracy == [e.test_accuracy for e in table.epochs] and accuracy[-1] >= 0.9

        field = lab.query_one("#train-epochs", Input)
        field.value = "1"
        await pilot.press("ctrl+e")
        await settle(app, pilot)
        assert [e.epoch for e in table.epochs] == [1, 2, 3]
        assert len(lab.query_one(LossCurve).plotted) == 3 * 45

        editor = lab.query_one("#train-config", TextArea)
        editor.text = "model = nn.Linear(64, 3)\n"
        await pilot.pause()  # the edit lands (an edit takes the last error away)
        await pilot.press("ctrl+e")
        await settle(app, pilot)
        error = lab.query_one("#train-error", Static)
        assert error.has_class("-shown") and "config changed" in str(error.render())
        assert len(table.epochs) == 3

        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "(B, 10)" in str(error.render())

        editor.text = "model = nn.Linear(64, 10)\nlr = 0.5\n"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert not error.has_class("-shown")
        assert [e.epoch for e in table.epochs] == [1]
        assert table.checkpoint is not None and table.checkpoint.resumed_from is None


async def test_the_xla_backend_starts_the_xla_runtime_and_trains(sandbox, xla_runtime):
    app = LabApp(TrainLab({"epochs": "1", "backend": "xla"}), sandbox)  # the app's is the cpu one
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.lab.query_one(RunStatus).message.startswith("starting the xla runtime… ")
        await settle(app, pilot)
        error = app.lab.query_one("#train-error", Static)
        assert not error.has_class("-shown"), error.render()
        table = app.lab.query_one(EpochTable)
        assert [e.epoch for e in table.epochs] == [1] and table.epochs[0].test_accuracy > 0.5
        assert "· xla ·" in app.lab.about


def test_recording_is_a_real_run():
    """The snapshot draws this run; everything but its timings must still be what torch says."""
    from tutor.probes.train import train

    kept = json.loads(RECORDING.read_text())
    now = train(epochs=3).model_dump(mode="json")
    for run in (kept, now):
        run.pop("state")
        for e in run["epochs"]:
            e.pop("seconds")
    # float sums may differ in the last bits with the number of threads
    assert rounded(now) == rounded(kept)


def rounded(value):
    """``value`` with every float rounded to 5 decimals."""
    if isinstance(value, float):
        return round(value, 5)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_train_lab_snapshot(snap_compare, size):
    data = TrainRun.model_validate_json(RECORDING.read_text())
    app = LabApp(TrainLab(), None)

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one("#train-epochs", Input).cursor_blink = False
        app.lab.query_one(TextArea).cursor_blink = False
        app.lab.show(data)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
