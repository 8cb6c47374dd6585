"""The loader lab driven end to end through the real sandbox (Pilot), and its looks from recorded
probe data (snapshots at 80x24 and 120x40). No assertion reads a time."""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, Input, Select, Static

from labs.harness import LabApp, recorded, settle
from tutor.content.labs import get_lab
from tutor.probes.data_loader import LoaderRun
from tutor.ui.labs.loader.loader_timeline import LoaderTimeline
from tutor.ui.labs.loader.screen import LoaderLab

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


def test_counts_are_parsed_or_refused_plainly():
    samples, batch = get_lab("loader").param("samples"), get_lab("loader").param("batch")
    assert samples.parse_text(" 12 ") == 12
    with pytest.raises(ValueError, match="batch must be a whole number, not '1.5'"):
        batch.parse_text("1.5")
    with pytest.raises(ValueError, match="batch must be between 1 and 100,000, not 0"):
        batch.parse_text("0")


async def test_loader_lab_end_to_end(sandbox):
    app = LabApp(LoaderLab({"samples": "10", "batch": "3", "workers": "2"}), sandbox)
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        data = lab.query_one(LoaderTimeline).data
        assert data is not None and (data.batches, data.full, data.last) == (4, 3, 1)
        assert {e.worker for e in data.timeline} <= {0, 1}
        assert "the last holds 1" in str(lab.query_one("#loader-summary", Static).render())

        lab.query_one("#loader-drop-last", Checkbox).value = True
        lab.query_one("#loader-workers", Select).value = 0
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        data = lab.query_one(LoaderTimeline).data
        assert data.drop_last and (data.batches, data.last, data.steps_per_epoch) == (3, 3, 3)
        assert {e.worker for e in data.timeline} == {-1}

        field = lab.query_one("#loader-batch", Input)
        field.value = "0"
        field.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        error = lab.query_one("#loader-error", Static)
        assert error.has_class("-shown") and "batch must be between 1 and 100,000, not 0" in str(
            error.render()
        )
        assert lab.query_one(LoaderTimeline).data is data


@pytest.mark.parametrize(
    "name, size", [("loader_workers.json", (80, 24)), ("loader_drop.json", (120, 40))]
)
def test_loader_lab_snapshot(snap_compare, name, size):
    data = recorded(LoaderRun, name)
    preset = {
        "samples": str(data.samples),
        "batch": str(data.batch),
        "workers": str(data.workers),
        "drop_last": str(data.drop_last),
    }
    app = LabApp(LoaderLab(preset), None)

    async def before(pilot) -> None:
        await pilot.pause()
        for field in app.lab.query(Input):
            field.cursor_blink = False
        app.lab.show(data)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
