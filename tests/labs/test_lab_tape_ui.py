"""The autograd-tape lab driven end to end through the real sandbox (Pilot), and its looks from
recorded probe data (snapshots at 80x24 and 120x40)."""

from __future__ import annotations

import pytest
from textual.widgets import Static, TabbedContent, TextArea

from labs.harness import LabApp, recorded, settle
from tutor.probes.data_tape import Tape
from tutor.ui.labs.tape.screen import TapeLab
from tutor.ui.labs.tape.tape_graph import TapeGraph
from tutor.ui.labs.tape.tape_panels import TapeStepPanel

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_tape_lab_steps_worked_example_a(sandbox):
    app = LabApp(TapeLab(), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        graph = lab.query_one(TapeGraph)
        data = graph.data
        assert data is not None and data.value == 32.0
        assert data.leaves["x"].grad == [5.0, 7.0, 9.0]
        assert graph.step == 0
        panel = lab.query_one(TapeStepPanel)
        for k in range(1, len(data.order) + 1):
            await pilot.press("n")
            assert graph.step == panel.step == k
        assert data.label(data.order[-1]) == "AccumulateGrad(x)"
        shown = str(panel.render())
        assert "accumulated into x.grad" in shown and "[5, 7, 9]" in shown
        await pilot.press("n")  # past the end stays at the end
        assert graph.step == len(data.order)
        await pilot.press("p", "p")
        assert graph.step == len(data.order) - 2
        await pilot.press("c")
        assert lab.query_one(TabbedContent).active == "tab-checks"
        checks = str(lab.query_one("#tape-checks", Static).render())
        assert "✓ agree" in checks and "backward through the graph a second time" in checks


async def test_tape_lab_new_code_and_bad_code(sandbox):
    app = LabApp(
        TapeLab(
            {"code": "w = torch.tensor([1., -2., 0.5], requires_grad=True)\nloss = (w**2).sum()"}
        ),
        sandbox,
    )
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        graph = lab.query_one(TapeGraph)
        assert graph.data is not None and graph.data.value == 5.25
        assert graph.data.leaves["w"].grad == [2.0, -4.0, 1.0]
        await pilot.press("e")
        editor = lab.query_one("#tape-code", TextArea)
        assert editor.has_focus
        await pilot.press("n")  # typed into the editor, not a step
        assert graph.step == 0 and "n" in editor.text
        error = lab.query_one("#tape-error", Static)
        for code, says in [
            ("x = (", "syntax error"),
            ("x = torch.ones(3, requires_grad=True)\ny = x * 2", "needs a scalar"),
            ("x = torch.ones(3)\ny = x.sum()", "does not require grad"),
        ]:
            editor.load_text(code)
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            assert error.has_class("-shown") and says in str(error.render())
            assert graph.data.value == 5.25  # the last good tape stays


@pytest.mark.parametrize(
    "name, keys, size",
    [
        ("tape_example_a.json", ("n", "n", "n"), (80, 24)),
        ("tape_example_a.json", ("n", "n", "n", "n", "n"), (120, 40)),
        ("tape_mlp.json", ("n", "n", "n", "n"), (120, 40)),
        ("tape_mlp.json", ("c",), (80, 24)),
    ],
)
def test_tape_lab_snapshot(snap_compare, name, keys, size):
    app = LabApp(TapeLab({"code": recorded(Tape, name).code}), None)

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one(TextArea).cursor_blink = False
        app.lab.show(recorded(Tape, name))
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
