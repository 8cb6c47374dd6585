"""The stride-map lab driven end to end through the real sandbox (Pilot), and its looks from
recorded probe data (snapshots at 80x24 and 120x40)."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from labs.harness import LabApp, recorded, replace_text, settle
from tutor.probes.data_stride_map import StrideMap
from tutor.ui.labs import lab_screen
from tutor.ui.labs.stride.screen import StrideLab
from tutor.ui.labs.stride.stride_facts import ViewVerdict
from tutor.ui.labs.stride.stride_grid import StrideGrid
from tutor.ui.labs.stride.stride_strip import StorageStrip

# one sandbox for the whole module (tests/labs/conftest.py), so one event loop too
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_stride_lab_end_to_end(sandbox):
    app = LabApp(StrideLab(), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        grid = lab.query_one(StrideGrid)
        assert grid.data is not None and grid.data.shape == [4, 2, 3]
        assert grid.data.stride == [1, 12, 4]

        await replace_text(
            pilot, lab.query_one("#stride-expr", Input), "torch.arange(24.).view(2, 3, 4)"
        )
        await pilot.press("enter")
        await settle(app, pilot)
        assert grid.data.stride == [12, 4, 1] and grid.data.contiguous
        assert grid.has_focus
        await pilot.press("down", "right", "right")
        assert grid.cursor == (0, 1, 2)
        strip = lab.query_one(StorageStrip)
        assert strip.focus_offset == 6
        arith = str(lab.query_one("#stride-arith", Static).render())
        assert "0 + 12·0 + 4·1 + 1·2 = 6" in arith and "value 6" in arith
        await pilot.press("right_square_bracket")
        assert grid.cursor == (1, 1, 2) and strip.focus_offset == 18
        verdict = lab.query_one(ViewVerdict).verdict
        assert verdict is not None and verdict.ok  # view(-1) of a contiguous tensor

        await pilot.press("w")
        await replace_text(pilot, lab.query_one("#stride-view", Input), "4, 6")
        await pilot.press("enter")
        await settle(app, pilot)
        verdict = lab.query_one(ViewVerdict).verdict
        assert verdict is not None and verdict.ok and verdict.result_stride == [6, 1]


async def test_stride_lab_bad_input_gets_a_message(sandbox):
    app = LabApp(StrideLab({"expr": "torch.ones(2, 3).t()", "view": "6"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        lab = app.lab
        grid = lab.query_one(StrideGrid)
        verdict = lab.query_one(ViewVerdict).verdict
        assert verdict is not None and not verdict.ok and verdict.reshape_copied
        assert "view size is not compatible" in (verdict.error or "")
        error = lab.query_one("#stride-error", Static)
        for bad, says in [
            ("torch.randn(", "syntax error"),
            ("[1, 2]", "not a tensor"),
            ("torch.empty(10**11)", "memory limit"),
        ]:
            await replace_text(pilot, lab.query_one("#stride-expr", Input), bad)
            await pilot.press("enter")
            await settle(app, pilot)
            assert error.has_class("-shown")
            assert says in str(error.render())
            assert "Traceback" not in str(error.render())
            assert grid.data is not None and grid.data.shape == [
                3,
                2,
            ]  # the last good picture stays


async def test_stride_lab_preset_setup_shows_shared_storage(sandbox):
    screen = lab_screen("stride", {"setup": "a = torch.arange(12)", "expr": "a.view(3, 4)[:, 1:3]"})
    app = LabApp(screen, sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        data = app.lab.data
        assert data is not None and data.storage_offset == 1 and data.stride == [4, 1]
        assert [s.name for s in data.shared] == ["a"]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not app.lab


async def test_stride_lab_drill_setup_alone_maps_its_last_name(sandbox):
    app = LabApp(StrideLab({"setup": "a = torch.arange(6.)\nb = a.view(2, 3).t()"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        data = app.lab.data
        assert data is not None and data.expr == "b" and data.stride == [1, 3]
        assert [s.name for s in data.shared] == ["a"]


async def test_stride_lab_code_that_loops_times_out(sandbox):
    app = LabApp(StrideLab({"expr": "torch.ones(1)"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        field = app.lab.query_one("#stride-expr", Input)
        await pilot.press("slash")
        assert field.has_focus
        field.value = "max(iter(int, 1))"  # loops forever without allocating
        await pilot.press("enter")
        await settle(app, pilot)
        error = app.lab.query_one("#stride-error", Static)
        assert error.has_class("-shown") and "timed out" in str(error.render())


async def test_stride_lab_expression_that_eats_memory_says_so(sandbox):
    app = LabApp(StrideLab({"expr": "torch.ones(1)"}), sandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        field = app.lab.query_one("#stride-expr", Input)
        await pilot.press("slash")
        field.value = "[0] * 10**10"
        await pilot.press("enter")
        await settle(app, pilot)
        error = app.lab.query_one("#stride-error", Static)
        assert error.has_class("-shown") and "memory" in str(error.render())


def snapshot_app(name: str, keys: tuple[str, ...] = ()) -> tuple[LabApp, object]:
    """An app showing the recorded stride map ``name`` (no sandbox), and a run_before hook."""
    app = LabApp(StrideLab({"expr": recorded(StrideMap, name).expr}), None)

    async def before(pilot) -> None:
        await pilot.pause()
        for field in app.lab.query(Input):
            field.cursor_blink = False
        app.lab.show(recorded(StrideMap, name))
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()

    return app, before


@pytest.mark.parametrize(
    "name, keys, size",
    [
        ("stride_permute.json", ("down", "right", "right"), (80, 24)),
        ("stride_permute.json", ("right_square_bracket", "right"), (120, 40)),
        ("stride_shared.json", ("down", "down"), (80, 24)),
        ("stride_expand.json", ("down", "v"), (120, 40)),
        ("stride_slice.json", ("right",), (80, 24)),
    ],
)
def test_stride_lab_snapshot(snap_compare, name, keys, size):
    app, before = snapshot_app(name, keys)
    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.parametrize(
    "expr",
    [
        "torch.tensor(3.5)",
        "torch.empty(0, 3)",
        "torch.zeros(10**6)[500_000::7]",
        "torch.randn(2, 2, dtype=torch.cfloat)",
        "torch.ones(2, 3, dtype=torch.bool).t()",
        "torch.arange(4.).expand(5, 3, 2, 4)",
        'torch.empty(3, 4, device="meta").t()',
    ],
)
async def test_stride_widgets_draw_edge_cases(expr):
    """Odd tensors (0-d, empty, far offsets, complex, bool, 4-d, meta) draw without errors."""
    from tutor.probes.stride_map import stride_map  # the probe in-process, for its data only

    data = stride_map(expr)
    app = LabApp(StrideLab({"expr": expr}), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lab.show(data)
        await pilot.pause()
        await pilot.press("down", "right", "right_square_bracket", "v")
        await pilot.pause()
        grid = app.lab.query_one(StrideGrid)
        assert grid.data is data
        if data.numel:
            assert app.lab.query_one(StorageStrip).focus_offset == data.offset_of(grid.cursor)
