"""The recompilation counter in the TUI: opened in an app on the cpu runtime, it starts the xla
runtime its row names on demand and runs the loop twice, compiles climbing as the shapes come and
stopping once padded (Pilot, the real xla runtime); where that runtime is not built it says how
to build it; bad input is refused in place; its looks from recorded data (snapshots at 120x40 and
80x24)."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from labs.harness import LabApp, recorded, replace_text, settle
from tutor.probes.data_recompile import Recompile
from tutor.ui.labs.recompile.recompile_steps import CompileSteps
from tutor.ui.labs.recompile.screen import RecompileLab
from tutor.ui.widgets.run_status import RunStatus

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


def error_text(app: LabApp) -> str:
    error = app.lab.query_one("#recompile-error", Static)
    return str(error.render()) if error.has_class("-shown") else ""


async def test_where_the_xla_runtime_is_not_built_the_lab_says_how_to_build_it(
    sandbox, monkeypatch, tmp_path
):
    monkeypatch.setenv("TUTOR_RUNTIME_XLA", str(tmp_path / "no-runtime-here"))
    app = LabApp(RecompileLab({"sizes": "3,5"}), sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert error_text(app) == "the xla runtime is not built: run `make xla-runtime`"
        assert app.lab.query_one("#recompile-plain", CompileSteps).data is None


async def test_bad_input_is_refused_in_place():
    app = LabApp(RecompileLab(), None)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await replace_text(pilot, app.lab.query_one("#recompile-sizes", Input), "3,y")
        await pilot.press("enter")
        await pilot.pause()
        assert "'y' is not a batch size" in error_text(app)
        await replace_text(pilot, app.lab.query_one("#recompile-sizes", Input), "3,9")
        await replace_text(pilot, app.lab.query_one("#recompile-pad-to", Input), "4")
        await pilot.press("enter")
        await pilot.pause()
        assert "smaller than the largest batch (9)" in error_text(app)


async def test_the_lab_starts_the_xla_runtime_and_compiles_climb_then_stop_once_padded(
    sandbox, xla_runtime
):
    app = LabApp(RecompileLab({"sizes": "4,6,4,9"}), sandbox)  # the app's own is the cpu one
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.lab.query_one(RunStatus).message.startswith("starting the xla runtime… ")
        await settle(app, pilot)
        assert error_text(app) == ""
        plain = app.lab.query_one("#recompile-plain", CompileSteps).data
        padded = app.lab.query_one("#recompile-padded", CompileSteps).data
        assert [s.uncached_compiles for s in plain.steps] == [1, 2, 2, 3]
        assert padded.pad_to == 9 and [s.uncached_compiles for s in padded.steps] == [1] * 4
        verdict = str(app.lab.query_one("#recompile-verdict", Static).render())
        assert "3 compiles as they come, 1 padded to 9" in verdict
        assert "Losses agree" in verdict


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_recompile_lab_snapshot(snap_compare, size):
    plain = recorded(Recompile, "recompile_plain.json")
    padded = recorded(Recompile, "recompile_padded.json")
    app = LabApp(RecompileLab({"sizes": "3,5,7,5,3,8", "pad_to": "8"}), None)

    async def before(pilot) -> None:
        await pilot.pause()
        for field in app.lab.query(Input):
            field.cursor_blink = False
        app.lab.show(plain)
        app.lab.show(padded)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
