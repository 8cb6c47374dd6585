"""The rank timeline driven end to end through the real sandbox (Pilot), and its looks from
recorded probe data (snapshots at 80x24 and 120x40). No assertion reads a time."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select, Static

from labs.harness import LabApp, recorded, settle
from tutor.content.labs import get_lab
from tutor.probes.data_ranks import Ranks
from tutor.ui.labs.ranks.ranks_table import RanksTable
from tutor.ui.labs.ranks.ranks_timeline import RanksTimeline
from tutor.ui.labs.ranks.screen import RanksLab

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


def test_values_are_parsed_or_refused_plainly():
    lab = get_lab("ranks")
    values = lab.param("values")
    assert values.parse_text("") is None  # rank r starts from r + 1
    assert values.parse_text("1, 2.5") == [1.0, 2.5]
    with pytest.raises(ValueError, match="one value per rank: 3 values, not 2"):
        lab.call_for({"world": 3, "values": [1.0, 2.0]})
    with pytest.raises(ValueError, match="the skip rank must be 0 to 1, not 3"):
        lab.call_for({"world": 2, "skip": 3})
    with pytest.raises(ValueError, match="numbers separated by commas"):
        values.parse_text("1,a")


async def test_ranks_lab_end_to_end(sandbox):
    app = LabApp(RanksLab({"world": "3", "values": "1,2,3"}), sandbox)
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        data = lab.query_one(RanksTable).data
        assert data is not None and data.after == [[6.0]] * 3
        assert lab.query_one(RanksTimeline).data is data
        assert "every rank now holds the sum" in str(lab.query_one("#ranks-why", Static).render())

        lab.query_one("#ranks-op", Select).value = "all_gather"
        lab.query_one("#ranks-slow", Select).value = 2
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        data = lab.query_one(RanksTable).data
        assert data.op == "all_gather" and data.after == [[1.0, 2.0, 3.0]] * 3
        assert data.slow_rank == 2 and data.last_to_arrive == 2

        lab.query_one("#ranks-slow", Select).value = None
        lab.query_one("#ranks-op", Select).value = "all_reduce"
        lab.query_one("#ranks-skip", Select).value = 0
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        data = lab.query_one(RanksTable).data
        assert data.skip_rank == 0 and data.errors[0] is None
        assert any(e and "Timed out" in e for e in data.errors[1:])
        assert "never called all_reduce" in str(lab.query_one("#ranks-why", Static).render())

        field = lab.query_one("#ranks-values", Input)
        field.value = "1,2"
        field.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        error = lab.query_one("#ranks-error", Static)
        assert error.has_class("-shown") and "one value per rank" in str(error.render())
        assert lab.query_one(RanksTable).data is data


@pytest.mark.parametrize(
    "name, size", [("ranks_slow.json", (80, 24)), ("ranks_skip.json", (120, 40))]
)
def test_ranks_lab_snapshot(snap_compare, name, size):
    data = recorded(Ranks, name)
    preset = {"world": str(data.world), "op": data.op}
    app = LabApp(RanksLab(preset), None)

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one("#ranks-values", Input).cursor_blink = False
        app.lab.show(data)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
