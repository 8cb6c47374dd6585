"""The lesson reader: chunked Markdown, snippets run live in the real sandbox, labs, reading."""

from __future__ import annotations

from textual import events

from tutor.content.lesson_text import parse_lab_href
from tutor.content.models import Lesson
from tutor.ui.messages import OpenLesson
from tutor.ui.screens.lesson import FIRST_CHUNKS, LessonScreen
from tutor.ui.screens.lesson_parts import Prose, Run, lab_links, lesson_parts
from tutor.ui.widgets.snippet import SnippetView


async def open_lesson(app, pilot) -> LessonScreen:
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, LessonScreen)
    return app.screen


async def test_run_a_snippet_shows_live_output_beside_the_recorded_one(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        await pilot.press("r")  # runs the first snippet below the top of the view
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        first = screen.query(SnippetView).first()
        assert first.live is not None and first.live.status == "ok"
        assert first.live.stdout == "(2, 3) (3, 1)\n"
        live = first.query_one(".live")
        assert live.has_class("-match")
        assert "matches" in live.border_subtitle
        assert str(first.query_one(".recorded").render()).strip() == "(2, 3) (3, 1)"


async def test_tab_then_r_runs_the_focused_snippet(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        views = list(screen.query(SnippetView))
        views[1].focus()
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert views[1].live.stdout == "(1, 3)\n"
        assert views[0].live is None


async def test_mark_read_with_a_key_and_the_chapter_drills_are_listed(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        drills = screen.query_one("#lesson-drills")
        ids = [o.id for o in drills.options]
        assert "fixture-basics/row-strides" in ids and len(ids) == 5
        assert not app.store.lesson_read(1)
        await pilot.press("m")
        await pilot.pause()
        assert app.store.lesson_read(1)


async def test_reaching_the_end_marks_the_lesson_read(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(100, 20)) as pilot:
        screen = await open_lesson(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        scroll = screen.query_one("#lesson-scroll")
        assert scroll.max_scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        await pilot.pause()
        assert app.store.lesson_read(1)


async def test_a_large_lesson_mounts_in_chunks_and_keys_still_work(make_app, catalog):
    section = "## Section {n}\n\n" + "A line of prose about strides.\n\n" * 4
    snippet = "```python run\nprint({n})\n```\n\n```output\n{n}\n```\n\n"
    body = "".join(section.format(n=n) + snippet.format(n=n) for n in range(30))
    big = Lesson(chapter=1, title="Big", thesis="Many chunks.", body=body)
    catalog.lessons[1] = big
    parts = lesson_parts(body)
    assert len(parts) >= 60
    app = make_app(catalog=catalog, warm_sandbox=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_lesson(app, pilot)
        await pilot.press("m")  # the UI answers while the rest is mounting
        await pilot.pause()
        assert app.store.lesson_read(1)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.fully_mounted
        assert len(screen.query(SnippetView)) == 30
        # the first frame held only the first chunks; the rest came after it
        assert screen.first_frame_parts == FIRST_CHUNKS
    assert len(parts) > FIRST_CHUNKS


async def test_l_opens_the_linked_lab_with_its_preset(make_app):
    from tutor.content.labs import get_lab

    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_lesson(app, pilot)
        await pilot.press("l")  # the fixture lesson links one lab: it opens directly
        await pilot.pause()
        assert type(app.screen).__name__ == get_lab("stride").screen.split(":")[1]
        assert app.screen.values["expr"] == "torch.zeros(2,3)"


def test_lesson_parts_split_prose_and_snippets(catalog):
    parts = lesson_parts(catalog.lessons[1].body)
    kinds = [type(p) for p in parts]
    assert kinds == [Prose, Run, Prose, Run, Prose]
    assert parts[1].output == "(2, 3) (3, 1)\n"
    assert "```" not in "".join(p.text for p in parts if isinstance(p, Prose))


def test_lab_hrefs_and_links():
    assert parse_lab_href("lab:stride?expr=torch.zeros(2,%203)") == (
        "stride",
        {"expr": "torch.zeros(2, 3)"},
    )
    assert parse_lab_href("lab:tape") == ("tape", None)
    assert parse_lab_href("https://pytorch.org") is None
    body = "see [the map](lab:stride?expr=x.permute(2,0,1).view(-1)) and [tape](lab:tape)."
    assert lab_links(body) == [
        ("the map", "stride", {"expr": "x.permute(2,0,1).view(-1)"}),
        ("tape", "tape", None),
    ]


async def test_clicking_a_lab_link_opens_the_lab(make_app):
    from textual.widgets import Markdown

    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        prose = [m for m in screen.query(Markdown) if "lab:stride" in m.source]
        assert prose, "the fixture lesson's lab link is in a prose chunk"
        prose[0].post_message(Markdown.LinkClicked(prose[0], "lab:stride?expr=torch.ones(4)"))
        await pilot.pause()
        await pilot.pause()
        assert type(app.screen).__name__ == "StrideLab"
        assert app.screen.values["expr"] == "torch.ones(4)"


async def test_r_never_runs_a_focused_snippet_scrolled_out_of_sight(make_app):
    app = make_app()
    async with app.run_test(size=(100, 20)) as pilot:
        screen = await open_lesson(app, pilot)
        await app.workers.wait_for_complete()
        views = list(screen.query(SnippetView))
        views[0].focus()
        await pilot.pause()
        scroll = screen.query_one("#lesson-scroll")
        scroll.scroll_to(y=views[1].virtual_region.y, animate=False)  # snippet 1 on top
        await pilot.pause()
        assert views[0].virtual_region.bottom <= scroll.scroll_y  # 0 is out of sight
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert views[0].live is None
        assert views[1].live.stdout == "(1, 3)\n" and screen.focused is views[1]


async def test_a_long_code_line_wraps_as_a_marked_continuation_at_80_columns(long_lesson_app):
    app = long_lesson_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(app, pilot)
        code = screen.query_one(SnippetView).query_one(".snippet-code")
        lines = [strip.text.rstrip() for strip in code.render_lines(code.region.reset_offset)]
        lines = [line.strip() for line in lines if line.strip()]
        width = code.content_region.width
        assert all(len(line) <= width for line in lines)
        # the statement's rest hangs under it, marked, not at the margin as a new statement
        at = lines.index("same = v.untyped_storage().data_ptr() ==")
        assert lines[at + 1] == "↪ x.untyped_storage().data_ptr()"
        assert lines[-1] == "print(name, same)"


RAISES_BARE = """---
chapter: 1
title: "Bare exceptions"
thesis: A tensor is a view onto storage; strides are the map.
---

# Bare exceptions

```python run
print("first")
next(iter([]))
```
"""


async def test_a_recorded_bare_exception_matches_its_live_run(make_app, catalog, tmp_path, sandbox):
    """`tutor lesson record` and the live panel compute one output: an exception with an empty
    message is recorded as its type alone, and the live run says it matches."""
    from tutor.commands.lesson_run import record_lesson
    from tutor.content.lessons import load_lesson

    path = tmp_path / "01-bare.md"
    path.write_text(RAISES_BARE)
    record_lesson(path, sandbox, version="recorded")
    catalog.lessons[1] = load_lesson(path)
    assert catalog.lessons[1].snippets[0].output == "first\nStopIteration\n"
    app = make_app(catalog=catalog)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        view = screen.query_one(SnippetView)
        assert view.live.exception.type == "StopIteration" and view.live.exception.message == ""
        live = view.query_one(".live")
        assert live.has_class("-match"), live.border_subtitle
        assert str(live.render()) == "first\nStopIteration"


SLOW_AND_COMPILE = """---
chapter: 1
title: "Limits"
thesis: A tensor is a view onto storage; strides are the map.
---

# Limits

```python run
import time

time.sleep(2.5)
print("slept past a drill's 2 s")
```

```python run limits=compile
import resource

print("file size limit, MB:", resource.getrlimit(resource.RLIMIT_FSIZE)[0] // 2**20)
```
"""


async def test_a_live_run_gets_the_limits_lesson_record_gave_it(
    make_app, catalog, tmp_path, sandbox
):
    """A snippet slower than a drill's 2 s, and one declaring `limits=compile`, run live under
    the limits `tutor lesson record` recorded them with, so their live output matches."""
    from tutor.commands.lesson_run import record_lesson
    from tutor.content.lessons import load_lesson

    path = tmp_path / "01-limits.md"
    path.write_text(SLOW_AND_COMPILE)
    record_lesson(path, sandbox, version="recorded")
    catalog.lessons[1] = load_lesson(path)
    assert catalog.lessons[1].snippets[1].output == "file size limit, MB: 1024\n"
    app = make_app(catalog=catalog)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_lesson(app, pilot)
        for view in screen.query(SnippetView):
            view.focus()
            await pilot.press("r")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert view.live.status == "ok", view.live.reason
            live = view.query_one(".live")
            assert live.has_class("-match"), live.border_subtitle


SHORT_THEN_LONG = (
    "---\nchapter: 1\ntitle: Short first\nthesis: A tensor is a view onto storage.\n---\n\n"
    + "".join(f"## Part {n}\n\n" + "strides\n" * 10 + "\n" for n in range(4))
    + "".join(f"## Part {n}\n\n" + "A line of prose.\n\n" * 30 for n in range(4, 12))
)


async def test_a_pagedown_while_the_lesson_loads_is_not_lost(make_app, catalog, tmp_path):
    from tutor.content.lessons import load_lesson
    from tutor.ui.screens.lesson_parts import Prose, lesson_parts

    path = tmp_path / "01-short.md"
    path.write_text(SHORT_THEN_LONG)
    catalog.lessons[1] = load_lesson(path)
    assert len(lesson_parts(catalog.lessons[1].body)) > FIRST_CHUNKS
    assert all(isinstance(p, Prose) for p in lesson_parts(catalog.lessons[1].body))
    app = make_app(catalog=catalog, warm_sandbox=False)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        # queued together, as keys typed while the lesson opens: the PageDown reaches the screen
        # before it has focused its text, and while the first chunks fit the view
        app.post_message(OpenLesson(1))
        app.post_message(events.Key("pagedown", None))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        scroll = screen.query_one("#lesson-scroll")
        await app.workers.wait_for_complete()
        for _ in range(5):
            await pilot.pause()
        assert scroll.max_scroll_y > 100
        assert scroll.scroll_y == scroll.scrollable_content_region.height  # one page down


async def test_the_text_scrolls_by_keyboard_whatever_has_focus(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        scroll = screen.query_one("#lesson-scroll")
        screen.set_focus(None)
        await pilot.press("pagedown")
        await pilot.pause()
        assert scroll.scroll_y > 0
        await pilot.press("ctrl+home")
        await pilot.pause()
        assert scroll.scroll_y == 0
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y > 0
