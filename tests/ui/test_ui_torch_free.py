"""The UI process never imports torch: start the real app in a fresh interpreter, let it draw
the home screen (and warm the sandbox in the background), open a lesson, grade a drill in the
sandbox, then look at sys.modules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import asyncio, sys
from tutor.settings import Settings
from tutor.ui.app import TutorApp
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.home import HomeScreen
from tutor.ui.widgets.feedback import FeedbackPanel

async def main():
    app = TutorApp(Settings.from_options())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen), app.screen
        await app.workers.wait_for_complete()  # the sandbox warm-up has run
        await pilot.press("down", "enter")  # a lesson
        await pilot.pause()
        ref = next(r for r in app.catalog.drills() if r.drill.kind == "predict")
        app.post_message(OpenDrill(ref.full_id))  # a drill, graded in the sandbox
        await pilot.pause()
        await pilot.pause()
        await pilot.press(*"(1, 2)", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.query_one(FeedbackPanel).grade is not None
    print("torch" in sys.modules, flush=True)

asyncio.run(main())
"""


def test_ui_never_imports_torch(tutor_home):
    proc = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "False"
