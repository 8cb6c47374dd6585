"""The tutor starts, and says what it skipped, when a pack folder holds a FIFO, a symlink to
/dev/zero and an alias bomb (the same loading path as a real start: ``TutorApp(settings)``)."""

from __future__ import annotations

import os
import shutil

import pytest

from tutor.settings import PROJECT_ROOT, Settings
from tutor.ui.app import TutorApp
from tutor.ui.screens.home import HomeScreen

BOMB = (
    "pack: bomb\na: &a ["
    + ", ".join(['"lol"'] * 9)
    + "]\n"
    + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    )
)


@pytest.mark.timeout(120)
async def test_the_tutor_starts_past_hostile_pack_files(tmp_path):
    folder = tmp_path / "packs"
    folder.mkdir()
    os.mkfifo(folder / "fifo.yaml")
    (folder / "zero.yaml").symlink_to("/dev/zero")
    (folder / "bomb.yaml").write_text(BOMB)
    shutil.copy(PROJECT_ROOT / "drills" / "01-strides.yaml", folder / "strides-copy.yaml")
    app = TutorApp(Settings(packs=[folder], runtime=None), warm_sandbox=False)
    files = {p.file.rsplit("/", 1)[-1] for p in app.catalog.problems}
    assert {"fifo.yaml", "zero.yaml", "bomb.yaml"} <= files
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert any("problems in drill packs" in n.message for n in app._notifications)
