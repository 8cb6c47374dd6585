"""The app warms the shared sandbox after the first frame and closes it on exit."""

from __future__ import annotations

from tutor.ui.screens.home import HomeScreen


async def test_sandbox_warms_after_home_and_closes_with_the_app(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await app.workers.wait_for_complete()
        assert app.sandbox.ready is not None  # warmed in the background, torch imported there
        runtime = app.sandbox._proc
        assert runtime is not None and runtime.returncode is None
    assert runtime.returncode is not None  # quitting the app stopped the runtime


async def test_fixed_seed_gives_reproducible_variants(make_app):
    seeds = []
    for _ in range(2):
        app = make_app(warm_sandbox=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            seeds.append([app.new_seed() for _ in range(3)])
    assert seeds[0] == seeds[1]
    assert len(set(seeds[0])) == 3


def test_theme_follows_the_environment(monkeypatch):
    from tutor.ui.app import default_theme

    monkeypatch.delenv("TUTOR_THEME", raising=False)
    monkeypatch.delenv("COLORFGBG", raising=False)
    assert default_theme() == "tutor-dark"
    monkeypatch.setenv("COLORFGBG", "0;15")
    assert default_theme() == "tutor-light"
    monkeypatch.setenv("TUTOR_THEME", "dark")
    assert default_theme() == "tutor-dark"


def test_unknown_runtime_is_one_line_not_a_traceback(tutor_home):
    import subprocess
    import sys
    from pathlib import Path

    proc = subprocess.run(
        [sys.executable, "-m", "tutor", "--runtime", "no-such-runtime"],
        cwd=Path(__file__).resolve().parents[2],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("tutor: no runtime 'no-such-runtime'")
    assert "Traceback" not in proc.stderr
