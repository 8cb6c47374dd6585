"""Reading and predicting: a snippet's recorded output stays folded until the learner runs the
snippet or asks for it (the choice to show every recording is remembered), and after `r` the
live output is kept in view."""

from __future__ import annotations

from tests.ui.test_ui_lesson import open_lesson
from tutor.content.lessons import load_lesson
from tutor.ui.prefs import Prefs, prefs_path
from tutor.ui.widgets.snippet import SnippetView


def recorded(view: SnippetView) -> str:
    return str(view.query_one(".recorded").render()).strip()


async def test_a_recording_is_folded_until_the_snippet_runs_or_is_asked_for(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        first, second = list(screen.query(SnippetView))[:2]
        assert first.folded and "(2, 3) (3, 1)" not in recorded(first)
        assert "o shows it" in recorded(first)
        first.focus()
        await pilot.press("o")  # asked for: shown
        await pilot.pause()
        assert recorded(first) == "(2, 3) (3, 1)"
        await pilot.press("o")  # and folded again
        await pilot.pause()
        assert first.folded and "(2, 3)" not in recorded(first)
        second.focus()
        await pilot.press("r")  # run: the recording is there to compare with
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert recorded(second) == "(1, 3)" and second.query_one(".live").has_class("-match")
        assert first.folded  # the other snippet's recording is still folded


async def test_the_choice_to_show_every_recording_is_remembered(make_app):
    assert Prefs.load() == Prefs(show_recorded=False)
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        await pilot.press("O")
        await pilot.pause()
        assert all(not v.folded for v in screen.query(SnippetView))
        assert recorded(screen.query(SnippetView).first()) == "(2, 3) (3, 1)"
    assert Prefs.load().show_recorded and prefs_path().is_file()
    again = make_app(warm_sandbox=False)
    async with again.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(again, pilot)
        assert recorded(screen.query(SnippetView).first()) == "(2, 3) (3, 1)"
        await pilot.press("O")  # folded again, and remembered so
        await pilot.pause()
        assert all(v.folded for v in screen.query(SnippetView))
    assert not Prefs.load().show_recorded


def test_a_damaged_or_odd_prefs_file_means_the_defaults():
    path = prefs_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    for text in ("{not json", "[1, 2]", '{"show_recorded": "yes", "other": 1}'):
        path.write_text(text)
        assert Prefs.load() == Prefs()
    path.write_text('{"show_recorded": true}')
    assert Prefs.load().show_recorded


async def test_a_choice_that_cannot_be_saved_lasts_the_session_and_says_why(make_app):
    blocked = prefs_path()
    (blocked / "in-the-way").mkdir(parents=True)  # a folder where the file goes
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        await pilot.press("O")
        await pilot.pause()
        assert not screen.query(SnippetView).first().folded
        said = [str(n.message) for n in app._notifications]
        assert any("lasts only this session" in m and "prefs.json" in m for m in said), said
    assert Prefs.load() == Prefs()


LONG_SNIPPET = (
    """---
chapter: 1
title: "A long snippet"
thesis: A tensor is a view onto storage; strides are the map.
---

# A long snippet

```python run
"""
    + "".join(f"x{i} = torch.zeros({i + 1})\n" for i in range(30))
    + """print(x29.shape)
```

```output
torch.Size([30])
```

After the snippet.
"""
)


async def test_after_r_the_live_output_is_kept_in_view(make_app, catalog, tmp_path):
    path = tmp_path / "01-long.md"
    path.write_text(LONG_SNIPPET)
    catalog.lessons[1] = load_lesson(path)
    app = make_app(catalog=catalog)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(app, pilot)
        view = screen.query_one(SnippetView)
        scroll = screen.query_one("#lesson-scroll")
        assert view.virtual_region.height > scroll.scrollable_content_region.height
        await pilot.press("r")  # the snippet's top is on screen, its outputs below the fold
        await app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.pause()
        live = view.query_one(".live")
        assert view.live is not None and view.live.stdout == "torch.Size([30])\n"
        assert live.region.y >= scroll.region.y and live.region.bottom <= scroll.region.bottom
        assert scroll.can_view_entire(live)
