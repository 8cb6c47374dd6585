"""What a learner sees of a drill at 80x24: it opens at its top, focus in the answer, and the
answer comes into view when typed in; after every submit the verdict (with its "Why") is in
view, however the screen grew around it after the scroll."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from tests.ui.test_ui_drill import graded
from tests.ui.test_ui_drill_given import open_drill
from tests.ui.test_ui_snapshots import settle
from tutor.content.catalog import Catalog
from tutor.content.loader import load_pack
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.focus_view import in_view

DRILLS = Path(__file__).parents[2] / "drills"


def real_app(make_app, *packs: str):
    return make_app(catalog=Catalog(packs=[load_pack(DRILLS / p) for p in packs]))


def assert_verdict_in_view(screen) -> None:
    """The verdict's top in view; the verdict and its Why whole, where they fit together."""
    panel = screen.query_one("#drill-main")
    view = panel.scrollable_content_region
    verdict = screen.query_one(FeedbackPanel)
    assert verdict.display and view.y <= verdict.region.y < view.bottom, (panel.scroll_y, view)
    parts = [verdict.region]
    explain = screen.query_one("#drill-explain")
    if explain.display:
        parts.append(explain.region)
    bottom = max(p.bottom for p in parts)
    if bottom - verdict.region.y <= view.height:
        assert bottom <= view.bottom, (panel.scroll_y, view, parts)


# (pack, drill) whose given code pushes the answer below the fold at 80x24
LONG = [
    ("07-graphs.yaml", "graphs/export-refuses-branch"),
    ("08-ranks.yaml", "ranks-and-collectives/async-handle"),
    ("09-clock.yaml", "honest-clock/async-clock"),
    ("10-bridges.yaml", "bridges/cache-hits"),
    ("11-tpu-practice.yaml", "tpu-practice/shard-shape"),
    ("12-training-run.yaml", "training-run/write-accuracy"),
]


@pytest.mark.parametrize(("pack", "drill"), LONG, ids=[d for _, d in LONG])
async def test_a_drill_opens_at_its_top_with_focus_in_the_answer(make_app, pack, drill):
    async with real_app(make_app, pack).run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, drill)
        await pilot.pause()
        await pilot.pause()
        panel, answer = screen.query_one("#drill-main"), screen.query_one("#answer")
        assert panel.max_scroll_y > 0  # the drill is taller than the screen
        top = panel.scrollable_content_region.y
        assert panel.scroll_y == 0 and screen.query_one("#drill-title").region.y == top
        assert screen.focused is answer
        # the first key typed in the answer brings it into view, and lands there
        await pilot.press("down" if not isinstance(answer, Input | TextArea) else "x")
        await pilot.pause()
        await pilot.pause()
        assert screen.focused is answer and in_view(answer, panel)
        view = panel.scrollable_content_region
        assert answer.region in view or answer.region.y == view.y  # whole, or its top


async def test_reading_down_to_the_answer_keeps_its_focus(make_app):
    # the answer was never in view: PageDown scrolling toward it does not park the focus
    async with real_app(make_app, "10-bridges.yaml").run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "bridges/cache-hits")
        panel, answer = screen.query_one("#drill-main"), screen.query_one("#answer", Input)
        await pilot.pause()
        await pilot.press("down")  # one line: the answer is still below the fold
        await pilot.pause()
        await pilot.pause()
        assert panel.scroll_y == 1 and not in_view(answer, panel)
        assert screen.focused is answer
        await pilot.press("pagedown")
        await pilot.pause()
        await pilot.pause()
        assert in_view(answer, panel)
        assert screen.focused is answer
        await pilot.press("4")
        assert answer.value == "4"


async def test_a_right_answer_after_a_wrong_one_shows_its_verdict_and_why(make_app):
    # a wrong answer, ctrl+e, ctrl+u, the right answer, enter: the verdict and the "Why" (drawn
    # a block at a time, after the scroll asked for) are in view
    async with real_app(make_app, "05-loader.yaml").run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "loader/batch-count")
        p = screen.variant.params
        n, b, drop = p["n"], p["b"], p["drop"]
        right = n // b if drop else -(-n // b)
        await pilot.press(*str(right + 7), "enter")
        assert not (await graded(pilot.app, pilot)).correct
        await pilot.pause()
        assert_verdict_in_view(screen)
        await pilot.press("ctrl+e")
        await pilot.press("ctrl+u")
        await pilot.press(*str(right), "enter")
        assert (await graded(pilot.app, pilot)).correct
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#drill-explain").display
        assert_verdict_in_view(screen)


PAD = """def pad_collate(batch):
    return torch.nn.utils.rnn.pad_sequence(batch, batch_first=True), torch.tensor([len(s) for s in batch])
"""


async def test_an_answer_from_editor_shows_its_verdict_and_why(make_app):
    # ctrl+o's way back: the editor is loaded with a two-line answer holding a long line (it
    # grows by wrapping it), graded; the verdict and the Why are in view
    async with real_app(make_app, "05-loader.yaml").run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "loader/pad-collate")
        screen.back_from_editor(screen.current_answer(), PAD)
        assert (await graded(pilot.app, pilot)).correct
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#drill-explain").display
        assert_verdict_in_view(screen)


def test_right_after_wrong_verdict_80x24(snap_compare, make_app):
    async def run_before(pilot):
        screen = await open_drill(pilot, "loader/batch-count")
        p = screen.variant.params
        right = p["n"] // p["b"] if p["drop"] else -(-p["n"] // p["b"])
        await pilot.press(*str(right + 7), "enter")
        await graded(pilot.app, pilot)
        await pilot.press("ctrl+e")
        await pilot.press("ctrl+u")
        await pilot.press(*str(right), "enter")
        await graded(pilot.app, pilot)
        await settle(pilot)

    app = real_app(make_app, "05-loader.yaml")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_grading_is_said_in_view(make_app):
    # chapter 12's accuracy drill at 80x24: the status line under the buttons was below the
    # fold, so a submit changed nothing in view until the verdict came
    async with real_app(make_app, "12-training-run.yaml").run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "training-run/write-accuracy")
        slow = "def accuracy(model, x, y):\n    return sum(range(10**8)) * 0.0\n"
        screen.query_one("#answer", TextArea).load_text(slow)  # slow enough to be seen grading
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        panel, status = screen.query_one("#drill-main"), screen.query_one("#drill-status")
        assert screen.running and "grading in the sandbox" in str(status.render())
        assert status.region in panel.scrollable_content_region
        await graded(pilot.app, pilot)
        await pilot.pause()
        assert_verdict_in_view(screen)
