"""The training-loop debugger: end to end through the real sandbox (Pilot), its looks from
recorded probe data (snapshots at 80x24 and 120x40), and the recordings checked against torch."""

from __future__ import annotations

import math

import pytest
from textual.widgets import Input, Select

from labs.harness import LabApp, recorded, recordings, rerun, settle
from tutor.probes.data_loop_trace import LoopTrace
from tutor.ui.labs import lab_screen
from tutor.ui.labs.loop.loop_code import LoopCode
from tutor.ui.labs.loop.loop_diagnosis import LoopDiagnosis
from tutor.ui.labs.loop.loop_history import LoopHistory
from tutor.ui.labs.loop.loop_state import LoopState
from tutor.ui.labs.loop.screen import LoopLab
from tutor.ui.widgets.loss_curve import LossCurve

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


def same(a: object, b: object) -> bool:
    """Equal JSON data, floats to 1e-3 relative (float32 sums may differ by CPU)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-6)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@pytest.mark.parametrize("name", [n for n in recordings.SPECS if n.startswith("loop_")])
def test_recording_still_matches_torch(name):
    fresh, kept = rerun(name)
    assert same(fresh, kept)


@pytest.mark.parametrize(
    "size, name, keys",
    [
        ((80, 24), "loop_line_no_zero_grad.json", ["s", "s", "s", "n", "n"]),
        ((120, 40), "loop_line_no_zero_grad.json", ["e"]),
        ((80, 24), "loop_classify_no_eval.json", ["e"]),
        ((120, 40), "loop_classify_no_eval.json", ["s", "n", "n", "n"]),
        ((80, 24), "loop_classify_no_eval.json", ["e", "v"]),
        ((80, 24), "loop_line_no_zero_grad.json", ["e", "v", "v"]),
        ((120, 40), "loop_classify_no_eval.json", ["e", "v"]),
    ],
    ids=[
        "line-80x24-step3",
        "line-120x40-end",
        "classify-80x24-end",
        "classify-120x40-line4",
        "classify-80x24-setup",
        "line-80x24-steps",
        "classify-120x40-steps",
    ],
)
def test_loop_lab_looks(snap_compare, size, name, keys):
    app = LabApp(LoopLab(trace=recorded(LoopTrace, name)))

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one(LossCurve).redraw_now()
        await pilot.pause()

    async def after_keys(pilot) -> None:
        await before(pilot)
        for key in keys:
            await pilot.press(key)
        await before(pilot)

    assert snap_compare(app, terminal_size=size, run_before=after_keys)


def shown(lab: LoopLab, selector: str, rows: int = 1) -> bool:
    """Whether the panel ``selector`` is drawn inside the screen with ``rows`` rows inside."""
    widget = lab.query_one(selector)
    region = widget.region
    inside = region.height - widget.styles.gutter.height
    return widget.display and inside >= rows and lab.region.contains_region(region)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_every_loop_panel_can_be_seen(size):
    app = LabApp(LoopLab(trace=recorded(LoopTrace, "loop_classify_no_eval.json")))
    panels = ["#code", "#state", "#loop-setup", "#history"]
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        lab = app.lab
        history = lab.query_one(LoopHistory)
        await pilot.press("e")
        seen = {p for p in panels if shown(lab, p)}
        if size == (120, 40):  # all at once, the classifier's steps squeezed; v makes them room
            assert seen >= {"#code", "#state", "#loop-setup"}
            await pilot.press("v")
            assert not shown(lab, "#loop-setup") and shown(lab, "#history", rows=10)
            await pilot.press("v")
            assert seen == {p for p in panels if shown(lab, p)}
            return
        assert seen == {"#code", "#state"}
        await pilot.press("v")
        assert {p for p in panels if shown(lab, p)} == {"#loop-setup"}
        assert shown(lab, "#loop-setup", rows=10)  # the whole classifier set-up fits
        await pilot.press("v")
        assert {p for p in panels if shown(lab, p, rows=4)} == {"#code", "#history"}
        await pilot.press("0", "s")  # stepping still works while the steps are shown
        assert history.completed == 1
        await pilot.press("v")
        assert {p for p in panels if shown(lab, p)} == {"#code", "#state"}


async def test_loop_lab_end_to_end(sandbox):
    app = LabApp(LoopLab({"problem": "line"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        code, state = lab.query_one(LoopCode), lab.query_one(LoopState)
        assert lab.trace is not None and len(lab.trace.steps) == 200
        assert code.cursor == -1 and state.view is not None and state.view.snapshot.params == [0, 0]

        await pilot.press("n", "n", "n")  # zero_grad, forward, loss
        assert code.cursor == 2 and state.view.snapshot.loss == 17.875
        await pilot.press("n")  # backward
        assert state.view.snapshot.grads == pytest.approx([-11.25, 2.0])
        await pilot.press("n")  # step
        assert state.view.snapshot.params == pytest.approx([1.125, -0.2])
        await pilot.press("s")
        assert state.view.step == 2 and state.view.snapshot.loss == pytest.approx(7.232, abs=1e-3)

        await pilot.press("e")
        curve = lab.query_one(LossCurve)
        curve.redraw_now()
        assert len(curve.plotted) == 200 and curve.plotted[0] == 17.875
        w, b = state.view.snapshot.params
        assert w == pytest.approx(3, abs=1e-4) and b == pytest.approx(-1, abs=1e-4)
        diagnosis = lab.query_one(LoopDiagnosis)
        assert diagnosis.finding is not None and diagnosis.finding.level == "ok"

        # flip the bug: the lines change, the numbers ring, the diagnosis names the cause
        lab.query_one("#loop-bug", Select).value = "no_zero_grad"
        await settle(app, pilot)
        assert code.lines[0].startswith("# optimizer.zero_grad()")
        assert lab.playhead.done == 0
        await pilot.press("r")  # play continuously until the end
        for _ in range(600):
            if lab.playhead.at_end:
                break
            await pilot.pause(0.05)
        await pilot.pause()
        assert lab.playhead.at_end and not lab.playing
        assert "accumulate" in diagnosis.finding.cause
        assert [round(x, 3) for x in lab.trace.losses[:3]] == [17.875, 7.232, 0.198]

        # lr 1.5 explodes
        lr = lab.query_one("#loop-lr", Input)
        lr.focus()
        lr.value = "1.5"
        await pilot.press("enter")
        await settle(app, pilot)
        assert code.has_focus
        await pilot.press("e")
        assert diagnosis.finding.level == "bad" and "lr too high" in diagnosis.finding.cause

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not lab


async def test_loop_lab_bad_input_gets_a_message(sandbox):
    app = LabApp(lab_screen("loop", {"problem": "line", "bug": "no_eval"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        diagnosis = lab.query_one(LoopDiagnosis)
        assert "needs a classifier" in diagnosis.error and "Traceback" not in diagnosis.error
        assert diagnosis.has_class("-error")
        await pilot.press("n", "s", "r", "e")  # nothing to play: no crash

        lab.query_one("#loop-problem", Select).value = "classify"
        await settle(app, pilot)
        assert diagnosis.error == "" and lab.trace is not None and lab.trace.bug == "no_eval"

        steps = lab.query_one("#loop-steps", Input)
        for bad, says in [("many", "whole number"), ("100000", "steps must be between")]:
            steps.focus()
            steps.value = bad
            await pilot.press("enter")
            await settle(app, pilot)
            assert says in diagnosis.error
