"""The two-bridge ledger in the TUI: on the cpu runtime it says how to get the xla runtime
(Pilot, real sandbox); on the xla runtime (when built) it runs both bridges and shows the export
that drops a full sum; its looks from recorded data (snapshots at 120x40 and 80x24)."""

from __future__ import annotations

import pytest
from textual.widgets import Select, Static, TextArea

from labs.harness import DATA, LabApp, settle
from tutor.commands.labs.bridges import XLA_PYTHON
from tutor.probes.data_bridges import Bridges
from tutor.sandbox import AsyncSandbox
from tutor.ui.labs.bridges.bridges_ledger import BridgesLedger
from tutor.ui.labs.bridges.screen import BridgesLab

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_on_the_cpu_runtime_the_lab_says_how_to_get_xla(sandbox):
    app = LabApp(BridgesLab(), sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        error = app.lab.query_one("#bridges-error", Static)
        assert error.has_class("-shown") and "make xla-runtime" in str(error.render())
        assert app.lab.query_one(BridgesLedger).data is None


@pytest.mark.skipif(not XLA_PYTHON.exists(), reason="no xla runtime (make xla-runtime)")
async def test_on_the_xla_runtime_the_lab_runs_both_bridges():
    box = AsyncSandbox(runtime=str(XLA_PYTHON))
    try:
        app = LabApp(BridgesLab(), box)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            ledger = app.lab.query_one(BridgesLedger)
            assert ledger.data is not None and ledger.data.xla.export_matches_eager is True
            app.lab.query_one("#bridges-example", Select).value = "a full x.sum()"
            await settle(app, pilot)
            assert ledger.data.eager.output == 15.0
            assert ledger.data.xla.export_matches_eager is False
            export = app.lab.query_one("#bridges-xla-hlo", TextArea).text
            assert "-> tensor<2x3xf32>" in export  # the function returns its input
            assert "aten::sum" in app.lab.query_one("#bridges-ir", TextArea).text
    finally:
        await box.close()


@pytest.mark.parametrize(
    ("name", "size"), [("bridges_sum.json", (120, 40)), ("bridges_mlp.json", (80, 24))]
)
def test_bridges_lab_snapshot(snap_compare, name, size):
    data = Bridges.model_validate_json((DATA / name).read_text())
    example = "a full x.sum()" if "sum" in name else "a small MLP"
    app = LabApp(BridgesLab({"example": example}), None)

    async def before(pilot) -> None:
        await pilot.pause()
        for area in app.lab.query(TextArea):
            area.cursor_blink = False
        app.lab.show(data)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
