"""Small layout at 80x24: an order line that wraps hangs under its own text, ctrl+e takes an
order back to its first line, home's continue never wraps to the margin, and a drill list's
longest title keeps two spaces before its kind."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import Button, OptionList, Static

from tests.ui.test_ui_drill import graded
from tests.ui.test_ui_drill_given import open_drill, rows
from tests.ui.test_ui_snapshots import settle
from tutor.content.catalog import Catalog
from tutor.content.loader import load_pack
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drills import DrillListScreen
from tutor.ui.widgets.chapter_list import ChapterList
from tutor.ui.widgets.focus_view import in_view
from tutor.ui.widgets.order_list import OrderList

DRILLS = Path(__file__).parents[2] / "drills"
NUMBERED = re.compile(r"^(\s*)(\d+)  (\S)")


def loader_app(make_app):
    return make_app(catalog=Catalog(packs=[load_pack(DRILLS / "05-loader.yaml")]))


async def test_a_wrapped_order_line_hangs_under_its_text(make_app):
    # chapter 5, "The journey of one batch": every line wraps at 80 columns
    async with loader_app(make_app).run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "loader/batch-journey")
        drawn = [row for row in rows(screen.query_one(OrderList)) if row.strip("▊▎▔▁ ")]
        body = [row.replace("▊", " ").replace("▎", " ") for row in drawn]
        text_at, continued = None, 0
        for row in body:
            numbered = NUMBERED.match(row)
            if numbered:
                text_at = numbered.start(3)
                continue
            assert text_at is not None, body
            assert len(row) - len(row.lstrip()) == text_at, body  # under the text, not the number
            continued += 1
        assert continued >= 3, body  # the lines did wrap


async def test_ctrl_e_takes_an_order_back_to_its_first_line(make_app):
    async with loader_app(make_app).run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "loader/batch-journey")
        order = screen.query_one(OrderList)
        order.highlighted = 3
        await pilot.press("ctrl+s")  # as shuffled: never an order the drill accepts
        assert not (await graded(pilot.app, pilot)).correct
        screen.query_one("#reveal", Button).focus()
        await pilot.pause()
        await pilot.press("ctrl+e")
        await pilot.pause()
        await pilot.pause()
        panel = screen.query_one("#drill-main")
        assert screen.focused is order and order.highlighted == 0
        assert in_view(order, panel) and order.scroll_y == 0


async def test_continue_goes_on_a_line_of_its_own_where_it_does_not_fit(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill("fixture-basics/no-grad-does"))
        await pilot.pause()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        drawn = [row for row in rows(app.screen.query_one("#home-summary", Static)) if row]
        assert drawn == [
            "  0/12 chapters done  ·  0 reviews due today",
            "  continue: drill · What no_grad does (c)",
        ]
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        drawn = [row for row in rows(app.screen.query_one("#home-summary", Static)) if row]
        assert len(drawn) == 1 and drawn[0].endswith("continue: drill · What no_grad does (c)")


async def test_the_longest_title_keeps_two_spaces_before_its_kind(make_app):
    app = make_app(catalog=Catalog(packs=[load_pack(DRILLS / "02-rules.yaml")]))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(DrillListScreen(2))
        await pilot.pause()
        listing = app.screen.query_one(OptionList)
        lines = [str(option.prompt) for option in listing.options if option.id]
        longest = next(line for line in lines if "Backward through the graph a second time" in line)
        assert "a second time  choice" in longest
        assert all(re.search(r"\S  +(predict|order|choice|code|fix)\b", line) for line in lines)


async def test_the_drill_list_head_wraps_between_its_groups(make_app):
    """At 80 columns chapter 12's head is one line; narrower, it wraps between the legend and
    "(enter opens a drill)", never inside either."""
    app = make_app(catalog=Catalog(packs=[load_pack(DRILLS / "12-training-run.yaml")]))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(DrillListScreen(12))
        await pilot.pause()
        head = app.screen.query_one("#drills-head", Static)
        drawn = [row.replace("\xa0", " ").strip() for row in rows(head) if row.strip()]
        assert len(drawn) == 1 and drawn[0].endswith("○ new  (enter opens a drill)"), drawn
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        await pilot.pause()
        drawn = [row.replace("\xa0", " ").strip() for row in rows(head) if row.strip()]
        assert drawn[-1] == "(enter opens a drill)", drawn


def test_order_lines_80x24(snap_compare, make_app):
    async def run_before(pilot):
        await open_drill(pilot, "loader/batch-journey")
        await settle(pilot)

    assert snap_compare(loader_app(make_app), terminal_size=(80, 24), run_before=run_before)


async def test_the_longest_chapter_title_keeps_two_spaces_before_its_status(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chapters = app.screen.query_one(ChapterList)
        firsts = [str(o.prompt).split("\n")[0] for o in chapters.options if o.id]
        assert any(re.search(r"Own the state, own the loop  +\S", line) for line in firsts)
        assert all(re.search(r"\S  +(lesson|no lesson|not yet)", line) for line in firsts)
