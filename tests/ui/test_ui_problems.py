"""Broken packs never crash the app: they are skipped, announced, and listed at a key."""

from __future__ import annotations

from tutor.content.catalog import Catalog
from tutor.settings import Settings
from tutor.ui.screens.home import HomeScreen
from tutor.ui.screens.pickers import ProblemsScreen


async def test_broken_pack_is_reported_not_fatal(make_app, tmp_path, fixtures_dir):
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        "pack: broken\ntitle: Broken\nchapter: 1\ndrills:\n  - id: x\n    kind: guess\n"
    )
    settings = Settings(packs=[fixtures_dir / "packs", broken])
    catalog = Catalog.load(settings, builtin=False)
    assert catalog.problems and any("broken.yaml" in str(p) for p in catalog.problems)
    app = make_app(catalog=catalog, warm_sandbox=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert any("problem" in n.message for n in app._notifications)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ProblemsScreen)
        assert any("broken.yaml" in line for line in app.screen.problems)


async def test_no_problems_no_key(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
