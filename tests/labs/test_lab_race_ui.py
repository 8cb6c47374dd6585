"""The dispatch-race lab driven end to end through the real sandbox (Pilot), and its looks from
recorded probe data (snapshots at 80x24 and 120x40). No assertion reads a timing value."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select, Static

from labs.harness import LabApp, recorded, settle
from tutor.probes.data_race import Race
from tutor.ui.labs.race.race_bars import RaceBars
from tutor.ui.labs.race.race_table import RaceTable
from tutor.ui.labs.race.screen import RaceLab

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_race_lab_end_to_end(sandbox):
    app = LabApp(RaceLab({"n": "16"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        data = lab.query_one(RaceBars).data
        assert data is not None and data.op == "linear" and data.n == 16 and data.match
        assert data.loop.python_calls == 2 * 16 + 1 and data.batched.python_calls == 1
        assert lab.query_one(RaceTable).data is data

        lab.query_one("#race-op", Select).value = "dot"
        field = lab.query_one("#race-n", Input)
        field.focus()
        field.value = ""
        await pilot.press(*"40", "enter")
        await settle(app, pilot)
        data = lab.query_one(RaceBars).data
        assert data is not None and data.op == "dot" and data.n == 40 and data.match
        assert data.shape == [40]
        assert "same result" in str(lab.query_one(RaceBars).render())

        field.value = "0"
        await pilot.press("enter")
        await settle(app, pilot)
        error = lab.query_one("#race-error", Static)
        assert error.has_class("-shown") and "between 1 and" in str(error.render())
        assert lab.query_one(RaceBars).data is data


@pytest.mark.parametrize(
    "name, size", [("race_linear.json", (80, 24)), ("race_normalize.json", (120, 40))]
)
def test_race_lab_snapshot(snap_compare, name, size):
    data = recorded(Race, name)
    app = LabApp(RaceLab({"n": str(data.n), "op": data.op}), None)

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one("#race-n", Input).cursor_blink = False
        app.lab.show(data)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
