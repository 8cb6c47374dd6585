"""The two-bridge ledger in the TUI: opened in an app on the cpu runtime, it starts the xla
runtime its row names on demand (saying how long it has been starting, as lessons do), runs both
bridges and shows the export that drops a full sum (Pilot, the real xla runtime); where that
runtime is not built it says how to build it; its looks from recorded data (snapshots at 120x40
and 80x24)."""

from __future__ import annotations

import pytest
from textual.widgets import Select, Static, TextArea

from labs.harness import DATA, LabApp, settle
from tutor.probes.data_bridges import Bridges
from tutor.ui.labs.bridges.bridges_ledger import BridgesLedger
from tutor.ui.labs.bridges.screen import BridgesLab
from tutor.ui.widgets.run_status import RunStatus

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_where_the_xla_runtime_is_not_built_the_lab_says_how_to_build_it(
    sandbox, monkeypatch, tmp_path
):
    monkeypatch.setenv("TUTOR_RUNTIME_XLA", str(tmp_path / "no-runtime-here"))
    app = LabApp(BridgesLab(), sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        error = app.lab.query_one("#bridges-error", Static)
        assert error.has_class("-shown")
        assert str(error.render()) == "the xla runtime is not built: run `make xla-runtime`"
        assert app.lab.query_one(BridgesLedger).data is None


async def test_the_lab_starts_the_xla_runtime_on_demand_and_runs_both_bridges(sandbox, xla_runtime):
    app = LabApp(BridgesLab(), sandbox)  # the app's own sandbox is the cpu one
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.lab.query_one(RunStatus).message.startswith("starting the xla runtime… ")
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
        assert not sandbox.ready  # nothing ran on the cpu runtime


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
