"""Nothing hostile reaches the terminal through the TUI: pack text arrives stripped, markup
from packs and learners is shown as written, and status lines take no markup."""

from __future__ import annotations

import io
import re

from rich.console import Console
from textual.widgets import Markdown, OptionList, Static

from tutor.content.catalog import Catalog, load_packs
from tutor.content.lessons import load_chapters
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.run_status import RunStatus

RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

EVIL = r"""pack: evil
title: "Evil \e]0;PWNED\a pack"
chapter: 1
drills:
  - id: pick
    kind: choice
    title: "[bold red]x[/] \e[2J\e]8;;http://evil.example\e\\link\e]8;;\e\\"
    prompt: "Pick \e[31mred\e[0m"
    choices:
      - answer: "[b]yes[/b] \e]0;T\a"
        correct: true
      - answer: "no"
        why: "because \e[2J[red]why[/red]"
"""


def evil_catalog(tmp_path) -> Catalog:
    path = tmp_path / "evil.yaml"
    path.write_text(EVIL)
    packs, problems = load_packs([path])
    assert not problems, problems
    return Catalog(packs=packs, chapters=load_chapters())


def shown(widget) -> str:
    """What the widget shows, as plain text (rendered by Rich, as the screen would)."""
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(widget.content, end="")
    return console.export_text().removesuffix("\n")  # a Content ends its last line itself


async def test_pack_text_and_feedback_are_literal_and_clean(make_app, tmp_path):
    app = make_app(catalog=evil_catalog(tmp_path), warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill("evil/pick", []))
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        title = shown(screen.query_one("#drill-title", Static))
        assert title.startswith("[bold red]x[/] link") and not RAW.search(title)
        assert "Pick red" in screen.query_one("#drill-prompt", Markdown).source
        options = screen.query_one(OptionList)
        prompts = [str(o.prompt) for o in options.options]
        assert "[b]yes[/b] " in prompts  # markup shown as written
        options.highlighted = prompts.index("no")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        feedback = shown(screen.query_one(FeedbackPanel))
        assert "because [red]why[/red]" in feedback and not RAW.search(feedback)


async def test_status_line_shows_markup_literally(make_app, tmp_path):
    app = make_app(catalog=evil_catalog(tmp_path), warm_sandbox=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill("evil/pick", []))
        await pilot.pause()
        await pilot.pause()
        status = app.screen.query_one(RunStatus)
        status.message = "grading failed: [/bold] \x1b]0;T\x07oops [link=x]y[/link]"
        await pilot.pause()
        assert shown(status) == "grading failed: [/bold] oops [link=x]y[/link]"
