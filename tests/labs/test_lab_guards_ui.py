"""The guard viewer lab driven end to end through the real sandbox (Pilot), and its looks from
recorded probe data (snapshots at 80x24 and 120x40)."""

from __future__ import annotations

import pytest
from textual.widgets import Static, TextArea

from labs.harness import LabApp, recorded, settle
from labs.test_lab_guards_probe import RECORDINGS
from tutor.probes.data_guards import GuardReport
from tutor.ui.labs.guards.guards_panels import EventTable
from tutor.ui.labs.guards.screen import GuardsLab

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_guards_lab_compiles_switches_backend_and_reports_bad_code(sandbox):
    app = LabApp(GuardsLab(), sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        assert lab.data is not None and lab.data.graphs == 2
        events = lab.query_one(EventTable)
        kinds = [event for event, _, _ in events.rows]
        assert kinds[0] == "break" and "recompile" in kinds
        assert "graph 0  sin, mul" in str(lab.query_one("#guards-ops", Static).render())
        assert "L['k'] == 2" in str(lab.query_one("#guards-set-text", Static).render())
        lab.action_next_backend()  # eager -> aot_eager, runs again
        await settle(app, pilot)
        assert lab.values["backend"] == "aot_eager" and lab.data.backend == "aot_eager"
        await pilot.press("e")
        editor = lab.query_one("#guards-code", TextArea)
        assert editor.has_focus
        editor.load_text("def f(x): return x")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        error = lab.query_one("#guards-error", Static)
        assert error.has_class("-shown") and "define `calls`" in str(error.render())
        assert lab.data.graphs == 2  # the last good report stays


@pytest.mark.parametrize(
    "name, size",
    [
        ("guards_breaks.json", (80, 24)),
        ("guards_breaks.json", (120, 40)),
        ("guards_clean.json", (120, 40)),
    ],
)
def test_guards_lab_snapshot(snap_compare, name, size):
    app = LabApp(GuardsLab({"code": RECORDINGS[name]["code"]}), None)

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one(TextArea).cursor_blink = False
        app.lab.show(recorded(GuardReport, name))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
