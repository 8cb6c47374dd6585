"""The benchmark lab driven end to end through the real sandbox (Pilot), and its looks from
recorded probe data (snapshots). No assertion reads a timing value."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static, TextArea

from labs.harness import LabApp, recorded, settle
from tutor.probes.data_bench import DEFAULT_CODE, Bench
from tutor.ui.labs.bench.bench_clocks import BenchClocks
from tutor.ui.labs.bench.bench_profile import BenchProfile
from tutor.ui.labs.bench.screen import BenchLab, preset_code

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")

ADDS = "x = torch.ones(4)\n\ndef fn():\n    return x + 1 + 2\n"


def test_preset_code_prefers_code_then_a_setup_that_defines_fn():
    assert preset_code({"code": ADDS}) == ADDS
    assert preset_code({"setup": ADDS}) == ADDS
    assert preset_code({"setup": "x = 1"}) == DEFAULT_CODE
    assert preset_code({}) == DEFAULT_CODE


async def test_bench_lab_end_to_end(sandbox):
    app = LabApp(BenchLab({"code": ADDS}), sandbox)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        data = lab.query_one(BenchClocks).data
        assert data is not None and lab.query_one(BenchProfile).data is data
        assert data.timer.threads == 1 and data.timer.runs >= 1
        ops = {p.op: p.calls for p in data.profile}
        assert ops["aten::add"] == 2 * data.profiled_calls  # x + 1 + 2: two adds per call

        lab.query_one("#bench-code", TextArea).text = "def fn():\n    return torch.ones(3).sum()\n"
        field = lab.query_one("#bench-threads", Input)
        field.value = "2"
        field.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        data = lab.query_one(BenchClocks).data
        assert data is not None and data.timer.threads == 2
        assert "aten::sum" in {p.op for p in data.profile}

        lab.query_one("#bench-code", TextArea).text = "x = 1\n"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        error = lab.query_one("#bench-error", Static)
        assert error.has_class("-shown") and "must define fn" in str(error.render())
        assert lab.query_one(BenchClocks).data is data

        field.value = "0"
        field.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        assert "between 1 and" in str(error.render())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_bench_lab_snapshot(snap_compare, size):
    data = recorded(Bench, "bench_matmul.json")
    app = LabApp(BenchLab(None), None)

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one("#bench-threads", Input).cursor_blink = False
        app.lab.query_one("#bench-code", TextArea).cursor_blink = False
        app.lab.show(data)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
