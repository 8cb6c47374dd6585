"""The drill screen shows what a drill gives beyond its prompt: the code run before the answer,
the functions of earlier drills it may call (never their bodies), its rules, and the sizes the
attempt's trials draw; a setup the prompt already quotes is not shown twice."""

from __future__ import annotations

from pathlib import Path

from tests.ui.test_ui_snapshots import settle
from tutor.content.catalog import Catalog
from tutor.content.loader import load_pack
from tutor.ui.messages import OpenDrill

PUZZLES = Path(__file__).parents[1] / "grading" / "packs" / "chained-puzzles.yaml"
GUARDS = Path(__file__).parents[2] / "drills" / "06-guards.yaml"


def puzzle_app(make_app):
    return make_app(catalog=Catalog(packs=[load_pack(PUZZLES)]))


async def open_drill(pilot, full_id: str):
    await pilot.pause()
    pilot.app.post_message(OpenDrill(full_id))
    await pilot.pause()
    await pilot.pause()
    return pilot.app.screen


async def test_a_chained_puzzle_shows_its_rules_callables_and_sizes_not_earlier_answers(make_app):
    app = puzzle_app(make_app)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await open_drill(pilot, "chained-puzzles/compress")
        given = str(screen.query_one("#drill-given").render())
        assert "Only torch.arange, torch.where" in given  # code spans, drawn as code
        assert "At most 1 line of code." in given
        assert "You may call: triu(j), cumsum(a)." in given
        assert "This attempt tries 1 case of the drill's own; edge sizes (i=1) (i=2)" in given
        assert "a @ triu" not in given  # the earlier puzzles' answers stay hidden


def guards_app(make_app):
    return make_app(catalog=Catalog(packs=[load_pack(GUARDS)]))


def rows(widget) -> list[str]:
    """The rows a widget draws, as text."""
    return [strip.text.rstrip() for strip in widget.render_lines(widget.region.reset_offset)]


async def test_given_code_wraps_under_its_own_indentation_marked(make_app):
    # "Which calls compile": a comment longer than 80 columns, and a statement that goes on
    # over two lines; the rest of a long line hangs under it, marked, never at the margin
    async with guards_app(make_app).run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "guards/recompile-sequence")
        drawn = rows(screen.query_one("#drill-given-code"))
        assert drawn[0] == "Given before your answer:"
        code = drawn[1:]
        assert all(row.startswith("    ") for row in code if row), code
        start = next(i for i, row in enumerate(code) if "compiled = {}" in row)
        assert code[start + 1].lstrip().startswith("↪ ")  # the comment goes on, marked
        assert code[start + 1].index("↪") > code[start].index("compiled")  # ... and indented
        said = " ".join(row.strip().removeprefix("↪ ") for row in code)
        assert "the guards that failed first" in said  # nothing cut


async def test_a_predict_drill_whose_prompt_quotes_its_setup_shows_no_given_block(make_app):
    app = make_app()
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await open_drill(pilot, "fixture-basics/row-strides")
        assert not screen.query("#drill-given") and not screen.query("#drill-given-code")


def test_chained_puzzle_screen(snap_compare, make_app):
    async def run_before(pilot):
        await open_drill(pilot, "chained-puzzles/compress")
        await settle(pilot)

    assert snap_compare(puzzle_app(make_app), terminal_size=(100, 32), run_before=run_before)


def test_given_code_screen_80x24(snap_compare, make_app):
    async def run_before(pilot):
        await open_drill(pilot, "guards/recompile-sequence")
        await settle(pilot)

    assert snap_compare(guards_app(make_app), terminal_size=(80, 24), run_before=run_before)
