"""The drill screen shows the fairer verdicts: a predict drill's named mistake, an order that
breaks a constraint, an order run in the sandbox and passed (real sandbox, real grader)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from textual.widgets import Input

from tests.ui.conftest import make_app
from tutor.content.catalog import Catalog
from tutor.content.lessons import load_chapters
from tutor.content.loader import load_pack
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.order_list import OrderList

FAIR = Path(__file__).parents[1] / "grading" / "packs" / "fair.yaml"


def fair_app():
    return make_app(catalog=Catalog(packs=[load_pack(FAIR)], chapters=load_chapters()))


async def open_drill(app, pilot, drill: str) -> DrillScreen:
    await pilot.pause()
    app.post_message(OpenDrill(f"fixture-fair/{drill}", []))
    await pilot.pause()
    await pilot.pause()
    assert isinstance(app.screen, DrillScreen)
    return app.screen


async def graded(app, pilot):
    await app.workers.wait_for_complete()
    await pilot.pause()
    return app.screen.query_one(FeedbackPanel)


async def put_in_order(pilot, order: OrderList, target: list[str]) -> None:
    """Selection sort with the learner's keys: highlight a line, shift+up moves it."""
    for place, line in enumerate(target):
        at = order.lines.index(line)
        order.highlighted = at
        for _ in range(at - place):
            await pilot.press("shift+up")
    await pilot.pause()
    assert order.lines == target


def shown(panel: FeedbackPanel) -> str:
    """The panel's text as the terminal shows it."""
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(panel.content, end="")
    return console.export_text()


async def test_a_predict_mistake_shows_its_feedback_and_no_generic_hint():
    app = fair_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "batches")
        n, b = int(screen.variant.params["n"]), int(screen.variant.params["b"])
        screen.query_one(Input).value = str(n // b)
        await pilot.press("enter")
        panel = await graded(app, pilot)
        assert panel.grade is not None and panel.grade.category == "mistake"
        text = shown(panel)
        assert "That drops the last, partial batch" in text and "Try this" not in text
        screen.query_one(Input).value = f"{-(-n // b)} batches"
        await pilot.press("enter")
        panel = await graded(app, pilot)
        assert panel.grade is not None and panel.grade.correct


async def test_an_order_that_breaks_a_constraint_names_it():
    app = fair_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "training-step")
        order = screen.query_one(OrderList)
        lines = list(screen.ref.drill.lines)
        await put_in_order(pilot, order, [lines[1], lines[2], lines[3], lines[0], lines[4]])
        await pilot.press("ctrl+s")
        panel = await graded(app, pilot)
        assert panel.grade is not None and panel.grade.status == "wrong"
        assert "throws away what the step reads" in shown(panel)
        await put_in_order(pilot, order, [lines[1], lines[0], lines[2], lines[3], lines[4]])
        await pilot.press("ctrl+s")
        panel = await graded(app, pilot)
        assert panel.grade is not None and panel.grade.correct
        assert "keeps every constraint" in shown(panel)


async def test_an_order_is_run_in_the_sandbox_and_its_verdict_shown():
    app = fair_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "grad-then-clear")
        order = screen.query_one(OrderList)
        lines = list(screen.variant.lines)
        by_text = {line.split(" ")[0]: line for line in lines}
        target = [by_text["w"], by_text["w.grad"], by_text["loss"], by_text["loss.backward()"],
                  by_text["g"]]  # fmt: skip
        wrong = [target[0], target[2], target[4], target[3], target[1]]
        await put_in_order(pilot, order, wrong)
        await pilot.press("ctrl+s")
        panel = await graded(app, pilot)
        assert panel.grade is not None and panel.grade.status == "wrong"
        assert "raises AttributeError" in shown(panel)
        await put_in_order(pilot, order, target)
        await pilot.press("ctrl+s")
        panel = await graded(app, pilot)
        assert panel.grade is not None and panel.grade.correct, panel.grade.feedback
        assert app.store.mastered("fixture-fair/grad-then-clear")
