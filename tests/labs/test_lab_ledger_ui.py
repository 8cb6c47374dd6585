"""The parameter & memory ledger: end to end through the real sandbox (Pilot), its looks from
recorded probe data (snapshots at 80x24 and 120x40), and the recording checked against torch."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select, Static, TextArea

from labs.harness import LabApp, recorded, recordings, rerun, settle
from tutor.probes.data_ledger import Ledger
from tutor.ui.labs import lab_screen
from tutor.ui.labs.ledger.ledger_table import LedgerTable, tree_prefixes
from tutor.ui.labs.ledger.ledger_totals import LedgerTotals
from tutor.ui.labs.ledger.screen import LedgerLab

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


def test_recording_still_matches_torch():
    fresh, kept = rerun("ledger_mlp_bn.json")
    assert fresh == kept


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_ledger_lab_looks(snap_compare, size):
    data = recorded(Ledger, "ledger_mlp_bn.json")
    code = recordings.SPECS["ledger_mlp_bn.json"][1]["code"]
    app = LabApp(LedgerLab({"expr": code}, ledger=data))

    async def before(pilot) -> None:
        await pilot.pause()
        app.lab.query_one(TextArea).cursor_blink = False
        app.lab.query_one(LedgerTable).focus()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)


async def test_ledger_lab_end_to_end(sandbox):
    app = LabApp(LedgerLab(), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        totals = lab.query_one(LedgerTotals)
        # the default example is the 784-256-128-10 MLP with dropout
        assert totals.ledger is not None and totals.ledger.total == 235_146
        assert totals.ledger.bytes["float32"] == 940_584
        assert totals.ledger.adam_bytes == 1_881_168
        table = lab.query_one(LedgerTable)
        assert table.row_count == len(totals.ledger.layers)

        lab.query_one("#ledger-example", Select).value = "MLP + BatchNorm1d"
        await settle(app, pilot)
        assert totals.ledger.total == 235_914
        assert table.row_count == len(totals.ledger.layers) + 6  # 3 buffers per BatchNorm1d

        lab.query_one("#ledger-example", Select).value = "residual net"
        await settle(app, pilot)
        assert totals.ledger.total == 68_362

        editor = lab.query_one(TextArea)
        editor.text = "nn.Linear(4, 3)"
        editor.focus()
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert totals.ledger.total == 15

        batch = lab.query_one("#ledger-batch", Input)
        batch.value = "8"
        batch.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        assert totals.ledger.batch == 8 and totals.ledger.activations == 8 * 3

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not lab


async def test_ledger_lab_bad_input_gets_a_message(sandbox):
    app = LabApp(lab_screen("ledger", {"expr": "nn.Linear(784, 10)"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        totals, status = lab.query_one(LedgerTotals), lab.query_one("#ledger-status", Static)
        assert totals.ledger is not None and totals.ledger.total == 7_850
        editor = lab.query_one(TextArea)
        for bad, says in [
            ("nn.Linear(4,", "syntax error on line 1"),
            ("[1, 2, 3]", "not an nn.Module"),
            ("while True:\n    pass\nnn.ReLU()", "timed out"),
            ("nn.Sequential(nn.Linear(10, 5), nn.Linear(6, 2))", "forward failed"),
            ("nn.Linear(int('[/]'), 2)", "invalid literal for int() with base 10: '[/]'"),
        ]:
            editor.text = bad
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            message = str(status.render())
            assert says in message and "Traceback" not in message
            if bad == "nn.Linear(4,":  # the learner's syntax error is called one
                assert "ValueError" not in message
            assert status.has_class("-shown")
        # a model too big for memory is counted on the meta device
        editor.text = "nn.Linear(100_000, 100_000)"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert totals.ledger.total == 10_000_100_000 and not status.has_class("-shown")
        shape = lab.query_one("#ledger-input-shape", Input)
        shape.value = "a, b"
        shape.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        assert "not a shape" in str(status.render())


def test_tree_guides_follow_the_module_tree():
    data = recorded(Ledger, "ledger_mlp_bn.json")
    prefixes = tree_prefixes(data.layers)
    assert prefixes[0] == "" and prefixes[-1] == "└ "
    assert set(prefixes[1:-1]) == {"├ "}
