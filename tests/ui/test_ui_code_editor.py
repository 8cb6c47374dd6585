"""The code editor indents as Python is written: enter keeps the indent, and adds a level
after a line ending in a colon."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tutor.ui.widgets.code_editor import CodeEditor, next_indent


def test_next_indent():
    assert next_indent("def f(x):") == "    "
    assert next_indent("    y = x + 1") == "    "
    assert next_indent("    if y:  # when set") == "        "
    assert next_indent("    s = 'a:'") == "    "
    assert next_indent("x = 1") == ""


class EditorApp(App[None]):
    def compose(self) -> ComposeResult:
        yield CodeEditor.code_editor("", language="python", id="code")


async def test_typing_a_function_indents_its_body():
    app = EditorApp()
    async with app.run_test(size=(60, 12)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.focus()
        await pilot.press(*"def f(x):", "enter", *"y = x", "enter", *"return y")
        await pilot.pause()
        assert editor.text == "def f(x):\n    y = x\n    return y"
