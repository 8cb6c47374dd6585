"""Nothing a lab shows is cut at 80x24, and all of it is reachable by keyboard: the guard
viewer's reasons wrap, the ranks lab's values field has room, a lab's description is a line
under the header (not cut by it), the bench lab's profiler and explanation scroll into view
whatever has focus, the loader's timeline has a key and no blank lane, counts read as words.
All from recorded probe data (no sandbox)."""

from __future__ import annotations

import pytest
from textual.containers import ScrollableContainer
from textual.widgets import Button, Input, Static, TextArea

from labs.harness import LabApp, drawn, recorded
from labs.test_lab_guards_probe import RECORDINGS
from tutor.probes.data_bench import Bench
from tutor.probes.data_bridges import Bridges
from tutor.probes.data_guards import GuardReport
from tutor.probes.data_loader import LoaderRun
from tutor.probes.data_recompile import Recompile
from tutor.ui.labs.bench.screen import BenchLab
from tutor.ui.labs.bridges.screen import BridgesLab
from tutor.ui.labs.guards.guards_panels import EventTable
from tutor.ui.labs.guards.screen import GuardsLab
from tutor.ui.labs.loader.loader_timeline import IDLE, LoaderTimeline
from tutor.ui.labs.loader.screen import LoaderLab
from tutor.ui.labs.ranks.screen import RanksLab
from tutor.ui.labs.recompile.recompile_steps import CompileSteps
from tutor.ui.labs.recompile.screen import RecompileLab
from tutor.ui.widgets.run_status import RunStatus

pytestmark = pytest.mark.asyncio(loop_scope="module")


def words(rows: list[str]) -> str:
    return " ".join(" ".join(rows).split())


async def test_the_guard_viewers_reasons_wrap_instead_of_being_cut():
    data = recorded(GuardReport, "guards_breaks.json")
    app = LabApp(GuardsLab({"code": RECORDINGS["guards_breaks.json"]["code"]}), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lab.show(data)
        await pilot.pause()
        table = app.lab.query_one(EventTable)
        rows = drawn(table)
        assert all(len(row) <= table.region.width for row in rows)
        shown = words(rows)
        for reason in [b.reason for b in data.graph_breaks] + [r.reason for r in data.recompiles]:
            assert " ".join(reason.split()) in shown, reason
        status = str(app.lab.query_one(RunStatus).render())
        assert status.startswith("2 graphs, 1 break on the first call · 3 recompiles")


async def test_the_ranks_values_field_has_room_at_80_columns():
    app = LabApp(RanksLab(), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = app.lab.query_one("#ranks-values", Input)
        assert field.region.width >= 60  # "1,2,3,4" and more, with its title
        assert field.border_title and "one number per rank" in field.border_title


async def test_a_labs_description_is_a_line_of_its_own_not_cut_by_the_header():
    app = LabApp(BridgesLab(), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lab = app.lab
        assert not lab.sub_title  # the header keeps the title alone
        about = lab.query_one("#lab-about", Static)
        assert about.display and lab.about.endswith("(xla runtime; not a TPU)")
        assert words(drawn(about)) == lab.about


async def test_the_bench_labs_profiler_and_why_are_reached_whatever_has_focus():
    app = LabApp(BenchLab(), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lab.show(recorded(Bench, "bench_matmul.json"))
        await pilot.pause()
        body = app.lab.query_one("#bench-main", ScrollableContainer)
        assert body.max_scroll_y > 0  # the profiler and the why are below the fold
        app.lab.query_one("#bench-go", Button).focus()
        await pilot.pause()
        await pilot.press("pagedown")
        await pilot.pause()
        assert body.scroll_y > 0
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        why = app.lab.query_one("#bench-why")
        assert body.can_view_entire(why)
        app.lab.query_one("#bench-code").focus()  # from the editor too: ctrl+home and ctrl+end
        await pilot.press("ctrl+home")
        await pilot.pause()
        assert body.scroll_y == 0


async def test_the_loader_timeline_has_a_key_and_no_blank_lane():
    data = recorded(LoaderRun, "loader_workers.json")
    app = LabApp(LoaderLab({"samples": "20", "workers": "2"}), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lab.show(data)
        await pilot.pause()
        timeline = app.lab.query_one(LoaderTimeline)
        rows = drawn(timeline)
        lanes = [row for row in rows if row.strip().startswith("worker")]
        assert len(lanes) == 2
        for lane in lanes:
            marks = lane.strip()[len("worker 0") :].strip()
            assert " " not in marks and IDLE in marks  # idle time dotted, never blank
        assert any(row.strip().startswith("key") and "making batch k" in row for row in rows)
        assert all(len(row) <= timeline.region.width for row in rows)
        why = words(drawn(app.lab.query_one("#loader-why")))
        assert "With 2 workers each worker makes whole batches" in why
        assert f"The last batch holds {data.last} of {data.batch}" in why


async def test_the_bench_labs_code_wraps_so_a_one_line_preset_is_read_whole():
    code = "x = torch.randn(1024, 1024); fn = torch.compile(lambda: x.sin() ** 2 + x.cos() ** 2)"
    app = LabApp(BenchLab({"code": code}), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = app.lab.query_one("#bench-code", TextArea)
        assert editor.text.strip() == code
        assert editor.max_scroll_x == 0  # nothing out of sight to the right
        shown = "".join(row.strip("▊▎ ") for row in drawn(editor))
        assert "".join(code.split()) in "".join(shown.replace("1 ", "", 1).split())


async def test_the_recompile_counts_stay_in_view_when_the_bar_outgrows_its_column():
    plain = recorded(Recompile, "recompile_plain.json")
    step = plain.steps[0]
    steps = [
        step.model_copy(
            update={"step": k, "batch": 3 + k, "shape": [3 + k, 8], "uncached_compiles": k + 1}
        )
        for k in range(9)
    ]
    many = plain.model_copy(update={"steps": steps, "distinct_shapes": 9})
    app = LabApp(RecompileLab({"sizes": ",".join(str(3 + k) for k in range(9))}), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lab.show(many)
        await pilot.pause()
        rows = drawn(app.lab.query_one("#recompile-plain", CompileSteps))
        for k in range(9):
            row = next(r for r in rows if r.split()[:2] == [str(k), str(3 + k)])
            assert f" {k + 1} " in f"{row} ", row  # the count, whatever the bar's room


async def test_the_bridges_ir_has_rows_to_read_at_80x24_and_scrolls_into_view():
    data = recorded(Bridges, "bridges_mlp.json")
    app = LabApp(BridgesLab({"example": "a small MLP"}), None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lab.show(data)
        await pilot.pause()
        ir = app.lab.query_one("#bridges-ir", TextArea)
        assert ir.region.height >= 8  # the IR's own rows, not one
        app.lab.query_one("#bridges-go", Button).focus()
        await pilot.press("ctrl+end")
        await pilot.pause()
        body = app.lab.query_one("#bridges-main", ScrollableContainer)
        assert body.can_view_entire(ir)
        assert "IR {" in ir.text and ir.text.splitlines()[1] in "\n".join(drawn(ir))
