"""Never typing blind at 80x24: a long verdict moves focus out of an editor it scrolls away,
typing keeps the cursor line in view, every panel scrolls by keyboard whatever has focus, and the
editor's keys are one behaviour everywhere (tab indents, escape leaves, backspace dedents), said
in the footer and the help."""

from __future__ import annotations

from textual.widgets import Button, Input, TextArea
from textual.widgets._footer import FooterKey

from tests.ui.test_ui_drill import graded, open_drill
from tutor.ui.screens.help import HelpScreen
from tutor.ui.widgets.code_editor import CodeEditor, dedent_width
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.focus_view import in_view

LONG_ERROR = 'raise ValueError("long " * 200)\n'


def shown(screen) -> str:
    """The words a screen shows, whitespace collapsed (wrapped lines joined)."""
    lines = []
    for widget in screen.query("Static"):
        lines += [strip.text for strip in widget.render_lines(widget.region.reset_offset)]
    return " ".join(" ".join(lines).split())


def footer(app) -> dict[str, str]:
    """What the footer shows now: key -> description."""
    return {k.key_display: k.description for k in app.screen.query(FooterKey) if k.display}


async def long_verdict(app, pilot):
    """The fix drill at 80x24 with an answer whose error fills more than the screen."""
    screen = await open_drill(app, pilot, "fix-grad")
    screen.query_one(TextArea).load_text(LONG_ERROR)
    await pilot.press("ctrl+s")
    grade = await graded(app, pilot)
    assert grade is not None and not grade.correct
    await pilot.pause()
    return screen


async def test_a_long_verdict_takes_focus_out_of_the_editor_it_scrolls_away(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await long_verdict(app, pilot)
        editor = screen.query_one(TextArea)
        panel = screen.query_one("#drill-main")
        assert panel.scroll_y > 0 and not in_view(editor, panel)  # the verdict took the view
        assert screen.focused is panel  # ... and the focus with it
        await pilot.press("x", "y", "backspace")
        assert editor.text == LONG_ERROR  # nothing typed blind
        await pilot.press("tab")  # back to the answer: it comes into view
        await pilot.pause()
        await pilot.pause()
        assert screen.focused is editor and in_view(editor, panel)


async def test_a_verdict_that_fits_is_shown_whole(make_app):
    # the panel's scrollbar appearing must not narrow the verdict into one more line below
    # the fold (its last line was cut at 80x24)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(app, pilot, "fix-grad")
        screen.query_one(TextArea).load_text('raise ValueError("long " * 20)\n')
        await pilot.press("ctrl+s")
        await graded(app, pilot)
        await pilot.pause()
        panel = screen.query_one("#drill-main")
        verdict = screen.query_one(FeedbackPanel)
        assert verdict.region.height <= panel.scrollable_content_region.height
        assert verdict.region in panel.scrollable_content_region


async def test_every_part_scrolls_by_keyboard_while_a_button_has_focus(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await long_verdict(app, pilot)
        panel = screen.query_one("#drill-main")
        screen.query_one("#submit", Button).focus(scroll_visible=False)
        panel.scroll_home(animate=False)
        await pilot.pause()
        await pilot.press("pagedown")
        await pilot.pause()
        assert panel.scroll_y > 0
        await pilot.press("ctrl+home")
        await pilot.pause()
        assert panel.scroll_y == 0
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert panel.scroll_y == panel.max_scroll_y > 0
        verdict = screen.query_one(FeedbackPanel)
        assert verdict.region.bottom <= panel.scrollable_content_region.bottom


async def test_typing_keeps_the_cursor_line_in_view(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(app, pilot, "fix-grad")
        editor = screen.query_one(TextArea)
        editor.load_text("\n".join(f"x{i} = {i}" for i in range(30)))
        panel = screen.query_one("#drill-main")
        await pilot.pause()
        for _ in range(25):
            await pilot.press("down")
        await pilot.pause()
        await pilot.pause()
        assert editor.cursor_location[0] == 25
        assert screen.focused is editor and in_view(editor, panel)


async def test_tab_indents_escape_leaves_and_both_are_said(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(app, pilot, "outer")
        editor = screen.query_one(TextArea)
        assert screen.focused is editor
        keys = footer(app)
        assert keys.get("tab") == "Indent" and keys.get("esc") == "Leave editor"
        editor.load_text("")
        await pilot.press("tab", "x")
        assert editor.text == "    x"
        await pilot.press("escape")  # one key out of the editor
        await pilot.pause()
        assert screen.focused is screen.query_one("#submit", Button)
        assert footer(app).get("esc") == "Back"
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        said = shown(app.screen)
        assert "a code editor: tab indents, escape leaves it" in said


async def test_every_code_editor_indents_on_tab(make_app):
    # labs build their editors directly: tab indents there too (it moved focus in some)
    editor = CodeEditor("", language="python")
    assert editor.tab_behavior == "indent"
    assert CodeEditor.code_editor("").tab_behavior == "indent"


async def test_backspace_in_the_indentation_removes_one_level(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(app, pilot, "outer")
        editor = screen.query_one(TextArea)
        editor.load_text("def f():\n        ")
        editor.move_cursor((1, 8))
        await pilot.press("backspace")
        assert editor.text == "def f():\n    "
        await pilot.press("backspace")
        assert editor.text == "def f():\n"
        editor.load_text("    x = 1  ")
        editor.move_cursor((0, 11))
        await pilot.press("backspace")  # after code: one character
        assert editor.text == "    x = 1 "
    assert [dedent_width(b, 4) for b in ("", "  ", "    ", "      ", "  x")] == [1, 2, 4, 2, 1]


async def test_question_mark_types_in_a_text_field_and_opens_help_elsewhere(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(app, pilot, "row-strides")
        await pilot.press("question_mark")
        assert screen.query_one(Input).value == "?" and app.screen is screen
        screen.query_one("#submit", Button).focus()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        said = shown(app.screen)
        assert "in a text field ? is typed" in said
        await pilot.press("escape")
        await pilot.pause()
        app.screen.dismiss(None)
        await pilot.pause()
        screen = await open_drill(app, pilot, "outer")
        await pilot.press("question_mark")
        assert screen.query_one(TextArea).text.count("?") == 1 and app.screen is screen


async def test_one_key_takes_focus_back_to_an_editor_a_verdict_scrolled_away(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await long_verdict(app, pilot)
        editor = screen.query_one(TextArea)
        panel = screen.query_one("#drill-main")
        screen.query_one("#reveal", Button).focus(scroll_visible=False)
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert screen.focused is not editor and not in_view(editor, panel)
        assert footer(app).get("^e") == "Answer"
        await pilot.press("ctrl+e")
        await pilot.pause()
        await pilot.pause()
        assert screen.focused is editor and in_view(editor, panel)
        assert "^e" not in footer(app)  # in the answer: ctrl+e is the editor's (end of line)
        await pilot.press("x")
        assert editor.text.startswith("x")  # typed where the cursor is, in view
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert "^e back to your answer, in view" in shown(app.screen)


async def test_one_key_takes_focus_back_to_an_order_list_a_verdict_scrolled_away(make_app):
    app = make_app()
    async with app.run_test(size=(80, 14)) as pilot:  # short: the verdict pushes the list out
        screen = await open_drill(app, pilot, "step-order")
        panel = screen.query_one("#drill-main")
        answer = screen.query_one("#answer")
        await pilot.press("ctrl+s")  # the order as given: wrong, and its verdict below
        grade = await graded(app, pilot)
        assert grade is not None and not grade.correct
        screen.query_one("#reveal", Button).focus(scroll_visible=False)
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert screen.focused is not answer
        assert answer.region not in panel.scrollable_content_region
        await pilot.press("ctrl+e")
        await pilot.pause()
        await pilot.pause()
        assert screen.focused is answer
        assert answer.region in panel.scrollable_content_region
