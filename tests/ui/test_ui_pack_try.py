"""`tutor pack try`: the tutor on one pack, graded for real, with a throwaway store, reloading
the pack when its file is saved."""

from __future__ import annotations

import asyncio

from click.testing import CliRunner
from textual.widgets import OptionList

from tutor.cli import main
from tutor.progress.store import Store
from tutor.ui.pack_try import PackDrills, TryApp, load_only
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.widgets.feedback import FeedbackPanel

WAIT_S = 60  # the bound on waiting for the watcher to see a save

PACK = """\
pack: try-demo
title: Try demo
chapter: 2
drills:
  - id: rows
    kind: predict
    prompt: What is `torch.zeros({n}, 3).shape`?
    params:
      n: {int: [2, 5]}
    ask: torch.zeros({n}, 3).shape
  - id: steps
    kind: order
    prompt: Put one step in order.
    lines:
      - optimizer.zero_grad()
      - loss.backward()
      - optimizer.step()
"""


def make(tmp_path, drill=None, text=PACK):
    file = tmp_path / "try.yaml"
    file.write_text(text)
    catalog, problems = load_only([file])
    assert problems == []
    store = Store(tmp_path / "throwaway.db")
    return file, TryApp([file], catalog, drill=drill, store=store, seed=7)


async def test_the_list_holds_only_the_pack_and_answers_are_graded_for_real(tmp_path):
    _file, app = make(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PackDrills)
        listing = app.screen.query_one(OptionList)
        ids = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
        assert ids == ["try-demo/rows", "try-demo/steps"]  # no built-in drill
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen) and screen.full_id == "try-demo/rows"
        n = screen.variant.params["n"]
        await pilot.press(*f"({n}, 3)", "enter")
        await app.workers.wait_for_complete([w for w in app.workers if w.group == "grade"])
        await pilot.pause()
        assert screen.query_one(FeedbackPanel).grade.correct
        assert [a.correct for a in app.store.attempts("try-demo/rows")] == [True]
        assert app.store.path == tmp_path / "throwaway.db"
        await pilot.press("escape", "escape")  # back to the list, then quit
        await pilot.pause()
    assert app.return_code == 0


def said(app: TryApp) -> list[str]:
    """Every message the app notifies, kept: a notification on screen times out (a few
    seconds), which a loaded machine can spend before the test reads it."""
    told: list[str] = []
    notify = app.notify

    def keep(message: str, **kwargs: object) -> None:
        told.append(str(message))
        notify(message, **kwargs)

    app.notify = keep
    return told


async def test_saving_the_pack_reloads_the_open_drill_on_the_same_variant(tmp_path):
    file, app = make(tmp_path, drill="try-demo/rows")
    told = said(app)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen) and "torch.zeros(" in screen.variant.prompt
        seed = screen.variant.seed

        file.write_text(
            PACK.replace("What is `torch.zeros", "Without running it, what is `torch.zeros")
        )
        await asyncio.wait_for(app.reloaded.wait(), WAIT_S)
        app.reloaded.clear()
        await pilot.pause()
        again = app.screen
        assert app.reloads == 1
        assert isinstance(again, DrillScreen) and again is not screen
        assert again.variant.prompt.startswith("Without running it") and again.variant.seed == seed
        assert "Reloaded: 1 drill changed." in told

        file.write_text(PACK.replace("kind: predict", "kind: predcit"))  # a broken save
        await asyncio.wait_for(app.reloaded.wait(), WAIT_S)
        app.reloaded.clear()
        await pilot.pause()
        assert app.screen is again  # the drill stays as it was
        assert any("unknown kind `predcit`" in m for m in told)

        file.write_text(
            PACK.split("  - id: rows")[0] + "  - id: steps" + PACK.split("  - id: steps")[1]
        )
        await asyncio.wait_for(app.reloaded.wait(), WAIT_S)
        await pilot.pause()
        assert isinstance(app.screen, PackDrills)  # its drill is gone: back to the list
        assert app.screen.query_one(OptionList).option_count == 1


def test_the_command_refuses_a_pack_that_does_not_load_and_an_unknown_drill(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(PACK.replace("kind: order", "kind: ordre"))
    result = CliRunner().invoke(main, ["pack", "try", str(bad)])
    assert result.exit_code == 1
    assert "unknown kind `ordre`" in result.output and "no pack loads from" in result.output
    good = tmp_path / "good.yaml"
    good.write_text(PACK)
    result = CliRunner().invoke(main, ["pack", "try", str(good), "stepz"])
    assert result.exit_code == 1 and "did you mean try-demo/steps" in result.output
