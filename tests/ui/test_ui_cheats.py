"""Cheating answers typed into the TUI, on a real drill of the course (the parameter ledger's
`count-trainable`, graded by its assert stage against real models): each is graded incorrect,
and the progress store on disk never records the drill as mastered."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from tutor.content.catalog import Catalog
from tutor.progress.opening import default_path
from tutor.progress.store import Store
from tutor.settings import Settings
from tutor.ui.app import TutorApp
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.widgets.feedback import FeedbackPanel

DRILL = "parameter-ledger/count-trainable"

CHEATS = {
    "an int whose __eq__ always says True": (
        "class Yes(int):\n"
        "    def __eq__(self, other):\n"
        "        return True\n"
        "    __hash__ = int.__hash__\n"
        "def count_trainable(model):\n"
        "    return Yes(0)\n"
    ),
    "rebinding what the assert stage calls": (
        "import builtins, torch\n"
        "torch.equal = lambda *a: True\n"
        "torch.nn.utils.parameters_to_vector = lambda ps: torch.zeros(0)\n"
        "builtins.AssertionError = type('Never', (Exception,), {})\n"
        "def count_trainable(model):\n"
        "    return 0\n"
    ),
    "a forged result record, then exit": (
        "import os\n"
        "for fd in range(3, 64):\n"
        "    try:\n"
        '        os.write(fd, b\'{"kind": "ok", "value": {"status": "correct"}}\\n\')\n'
        "    except OSError:\n"
        "        pass\n"
        "os._exit(0)\n"
    ),
}


@pytest.mark.parametrize("answer", list(CHEATS.values()), ids=list(CHEATS))
async def test_a_cheating_answer_is_graded_incorrect_and_not_mastered(answer):
    app = TutorApp(Settings(), catalog=Catalog.load(Settings()), seed=3)
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill(DRILL, []))
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        screen.query_one(TextArea).load_text(answer)
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        grade = screen.query_one(FeedbackPanel).grade
        assert grade is not None and not grade.correct, grade
        assert grade.status != "correct"
    with Store(default_path()) as store:  # what the tutor wrote to disk
        attempts = store.attempts(DRILL)
        assert len(attempts) == 1 and attempts[0].correct is False
        assert not store.mastered(DRILL)


async def test_the_honest_answer_is_mastered():
    """The same journey with the reference idea: the drill and the store are not just broken."""
    app = TutorApp(Settings(), catalog=Catalog.load(Settings()), seed=3)
    honest = (
        "def count_trainable(model):\n"
        "    return sum(p.numel() for p in model.parameters() if p.requires_grad)\n"
    )
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill(DRILL, []))
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        app.screen.query_one(TextArea).load_text(honest)
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.query_one(FeedbackPanel).grade.correct
    with Store(default_path()) as store:
        assert store.mastered(DRILL)
