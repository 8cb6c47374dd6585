"""The device & checkpoint lab driven end to end through the real sandbox (Pilot), and its
looks from recorded probe data (snapshots at 80x24 and 120x40)."""

from __future__ import annotations

import pytest
from textual.widgets import TabbedContent

from labs.harness import LabApp, recorded
from tutor.probes.data_checkpoint import Checkpoint
from tutor.sandbox import AsyncSandbox
from tutor.ui.labs.checkpoint.checkpoint_panels import DevicePanel, PickledPanel, RoundTripPanel
from tutor.ui.labs.checkpoint.screen import CheckpointLab

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_checkpoint_lab_end_to_end(sandbox):
    app = LabApp(CheckpointLab(), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        lab = app.lab
        device = lab.query_one(DevicePanel).data
        assert device is not None and device.error is not None
        assert "meta" in device.error.message
        state = lab.query_one(RoundTripPanel).data
        assert state is not None and state.equal and state.file_bytes > 0
        pickled = lab.query_one(PickledPanel).data
        assert pickled is not None and pickled.class_path == "mymodels.TinyNet"
        assert pickled.renamed is not None and pickled.renamed.type == "AttributeError"
        tabs = lab.query_one(TabbedContent)
        assert tabs.active == "tab-device"
        await pilot.press("3")
        assert tabs.active == "tab-pickle"
        await pilot.press("2")
        assert tabs.active == "tab-state"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not lab


@pytest.mark.parametrize(
    "tab, size",
    [
        ("device", (80, 24)),
        ("state_dict", (80, 24)),
        ("pickle", (120, 40)),
        ("state_dict", (120, 40)),
    ],
)
def test_checkpoint_lab_snapshot(snap_compare, tab, size):
    data = recorded(Checkpoint, "checkpoint.json")
    app = LabApp(CheckpointLab({"tab": tab}), None)

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.show(data)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)


async def test_checkpoint_lab_says_when_the_sandbox_cannot_start():
    """A runtime that exits at once (a real process, /bin/false) gives a message, not a crash."""
    from textual.widgets import Static

    box = AsyncSandbox("/bin/false")
    app = LabApp(CheckpointLab(), box)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            error = app.lab.query_one("#checkpoint-error", Static)
            assert error.has_class("-shown") and "did not start" in str(error.render())
            assert app.lab.query_one(DevicePanel).data is None
    finally:
        await box.close()
