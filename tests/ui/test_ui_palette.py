"""The command palette reaches every screen and action; `?` lists the keys."""

from __future__ import annotations

import pytest

from tutor.content.labs import LABS
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.screens.drills import DrillListScreen
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.home import HomeScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.screens.palette import TutorCommands
from tutor.ui.screens.review import ReviewScreen


async def run_command(app, pilot, text: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*text)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause()
    await pilot.pause()


async def test_palette_lists_every_screen_lab_and_drill(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        provider = TutorCommands(app.screen)
        texts = [text for text, _help, _callback in provider.entries()]
    for expected in ["Home", "Reviews due today", "Doctor", "Help: keys", "Lesson 1: Tensors"]:
        assert expected in texts
    assert all(f"Lab: {lab.title}" in texts for lab in LABS)
    assert "Drill: Strides of a fresh tensor" in texts
    assert "Drills of chapter 12: The training run" in texts


@pytest.mark.parametrize(
    ("query", "screen"),
    [
        ("Lesson 1: Tensors", LessonScreen),
        ("Drill: One training step", DrillScreen),
        ("Drills of chapter 1", DrillListScreen),
        ("Reviews due today", ReviewScreen),
    ],
)
async def test_palette_opens_screens(make_app, query, screen):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await run_command(app, pilot, query)
        assert isinstance(app.screen, screen)
        await run_command(app, pilot, "Home")
        assert isinstance(app.screen, HomeScreen)


async def test_palette_opens_a_lab(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await run_command(app, pilot, "Lab: Stride map")
        assert type(app.screen).__name__ == "StrideLab"


async def test_question_mark_shows_the_keys_of_the_screen(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = dict(app.screen.keys)
        assert keys["d"] == "Drills" and keys["r"] == "Reviews" and keys["D"] == "Doctor"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_mouse_click_on_a_chapter_button(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.click("#detail-drills")
        await pilot.pause()
        assert isinstance(app.screen, DrillListScreen)
        assert app.screen.chapter == 1
