"""The cross-entropy logits lab: end to end through the real sandbox (Pilot), its looks from
recorded probe data (snapshots at 80x24 and 120x40), and the recordings checked against torch."""

from __future__ import annotations

import math

import pytest
from textual.widgets import Input, Static

from labs.harness import LabApp, recorded, recordings, rerun, settle
from tutor.probes.data_logits import LogitsResult
from tutor.ui.labs import lab_screen
from tutor.ui.labs.logits.logits_bars import LogitsBars, bar
from tutor.ui.labs.logits.logits_summary import LogitsSummary
from tutor.ui.labs.logits.screen import LogitsLab

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")

NAMES = [n for n in recordings.SPECS if n.startswith("logits_")]


@pytest.mark.parametrize("name", NAMES)
def test_recording_still_matches_torch(name):
    fresh, kept = rerun(name)
    assert fresh.keys() == kept.keys()
    assert fresh["probs"] == pytest.approx(kept["probs"], rel=1e-5)
    for mode in ("correct", "softmax_first"):
        assert fresh[mode]["loss"] == pytest.approx(kept[mode]["loss"], rel=1e-5)
        assert fresh[mode]["grad"] == pytest.approx(kept[mode]["grad"], rel=1e-4, abs=1e-7)
        assert fresh[mode]["floor"] == pytest.approx(kept[mode]["floor"], rel=1e-5, abs=1e-7)


def test_bar_fills_in_eighths():
    assert bar(0.0, 4) == "····" and bar(1.0, 4) == "████"
    assert bar(0.5, 4) == "██··" and bar(1 / 8, 4) == "▌···"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", NAMES)
def test_logits_lab_looks(snap_compare, size, name):
    data = recorded(LogitsResult, name)
    app = LabApp(LogitsLab(result=data))

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one("#logits-logits", Input).cursor_blink = False
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)


async def test_logits_lab_end_to_end(sandbox):
    app = LabApp(LogitsLab(), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        bars = lab.query_one(LogitsBars)
        r = bars.result
        assert r is not None and r.logits == [2.0, 1.0, 0.1] and r.target == 0
        assert r.grad_matches and r.correct.grad == pytest.approx(r.p_minus_y, abs=1e-6)
        assert r.correct.loss == pytest.approx(-math.log(r.probs[0]), rel=1e-6)

        await pilot.press("down", "right", "right")  # class 1: 1.0 -> 2.0
        await settle(app, pilot)
        r = bars.result
        assert r.logits == [2.0, 2.0, 0.1] and r.probs[0] == pytest.approx(r.probs[1])
        assert lab.query_one("#logits-logits", Input).value == "2, 2, 0.1"

        await pilot.press("t")  # class 1 becomes the target
        await settle(app, pilot)
        assert bars.result.target == 1 and bars.result.p_minus_y[1] < 0

        await pilot.press("f")  # softmax first: the floor rises, the gradient shrinks
        await settle(app, pilot)
        r = bars.result
        assert r.active == "softmax_first"
        assert r.softmax_first.floor == pytest.approx(math.log(1 + 2 / math.e), rel=1e-5)
        assert r.softmax_first.grad_norm < r.correct.grad_norm
        assert lab.query_one(LogitsSummary).result is r

        await pilot.press("slash")
        field = lab.query_one("#logits-logits", Input)
        assert field.has_focus
        field.value = "5, -5"
        await pilot.press("enter")
        await settle(app, pilot)
        assert bars.result.logits == [5.0, -5.0] and bars.result.target == 1
        assert bars.has_focus

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not lab


async def test_logits_lab_bad_input_gets_a_message(sandbox):
    app = LabApp(lab_screen("logits", {"logits": "1, oops"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        status = lab.query_one("#logits-status", Static)
        assert "not a list of numbers" in str(status.render())
        assert lab.query_one(LogitsBars).result is not None  # fell back to the default logits
        field = lab.query_one("#logits-logits", Input)
        for bad, says in [("7", "between 2 and"), ("1, 2, inf", "finite"), ("x", "not a list")]:
            field.focus()
            field.value = bad
            await pilot.press("enter")
            await settle(app, pilot)
            assert says in str(status.render()) and status.has_class("-shown")


async def test_a_burst_of_nudges_runs_the_probe_once_on_the_last_logits(sandbox):
    app = LabApp(LogitsLab(), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab, bars = app.lab, app.lab.query_one(LogitsBars)
        started: list[list[float]] = []
        asked: list[list[float]] = []
        start, run_probe = lab.start, lab.run_probe

        def counted_start(values):
            started.append(values["logits"])
            start(values)

        async def counted_run(call, **kwargs):
            asked.append(call.kwargs["logits"])
            return await run_probe(call, **kwargs)

        lab.start, lab.run_probe = counted_start, counted_run
        for _ in range(8):  # a held key: eight nudges before the screen handles one
            bars.post_message(LogitsBars.Nudged(0, 0.5))
        await settle(app, pilot)
        # the eight runs asked for collapse into one, on the last logits
        assert started == asked == [[6.0, 1.0, 0.1]]
        assert bars.result is not None and bars.result.logits == [6.0, 1.0, 0.1]
        assert lab.query_one("#logits-logits", Input).value == "6, 1, 0.1"
