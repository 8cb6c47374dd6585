"""Drill journeys against the real sandbox and grader: predict (wrong, hint, right), order,
choice, code, fix; every attempt lands in the progress store."""

from __future__ import annotations

from textual.widgets import Input, OptionList, TextArea

from tutor.grading.attempt import make_variant
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.order_list import OrderList

PACK = "fixture-basics"


async def open_drill(app, pilot, drill: str, queue: list[str] | None = None) -> DrillScreen:
    await pilot.pause()
    app.post_message(OpenDrill(f"{PACK}/{drill}", queue or []))
    await pilot.pause()
    await pilot.pause()
    assert isinstance(app.screen, DrillScreen)
    return app.screen


async def graded(app, pilot):
    await app.workers.wait_for_complete()
    await pilot.pause()
    return app.screen.query_one(FeedbackPanel).grade


async def test_predict_wrong_then_hint_then_right(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "row-strides")
        b = screen.variant.params["b"]
        assert f"torch.zeros({screen.variant.params['a']}, {b})" in screen.variant.prompt
        await pilot.press(*"(1, 1)", "enter")
        grade = await graded(app, pilot)
        assert grade is not None and not grade.correct and grade.status == "wrong"
        assert app.screen.query_one(FeedbackPanel).has_class("-wrong")
        assert not screen.query_one("#drill-explain").display

        await pilot.press("ctrl+t")
        await pilot.pause()
        assert "Hint 1/2: The last dimension has stride 1." in str(
            screen.query_one("#drill-hints").render()
        )

        screen.query_one(Input).value = ""
        await pilot.press(*f"({b}, 1)", "enter")
        grade = await graded(app, pilot)
        assert grade.correct
        assert screen.query_one("#drill-explain").display  # the explanation once solved
        attempts = app.store.attempts(f"{PACK}/row-strides")
        assert [a.correct for a in attempts] == [False, True]
        assert [a.hints_used for a in attempts] == [0, 1]
        assert {a.seed for a in attempts} == {screen.variant.seed}
        assert attempts[1].answer == f"({b}, 1)"
        assert attempts[1].seconds >= 0
        assert app.store.mastered(f"{PACK}/row-strides")  # one hint still counts as mastered


async def test_order_drill_solved_with_keys(make_app, catalog):
    truth = list(catalog.drill(f"{PACK}/step-order").drill.lines)
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "step-order")
        order = screen.query_one(OrderList)
        assert order.lines != truth and sorted(order.lines) == sorted(truth)
        # the screen shows the one variant the grader and `tutor drill` draw for this seed
        variant = make_variant(screen.ref.full_id, screen.ref.drill, screen.variant.seed)
        assert order.lines == variant.lines
        # selection sort with the learner's keys: highlight a line, shift+up moves it
        for target, line in enumerate(truth):
            at = order.lines.index(line)
            order.highlighted = at
            for _ in range(at - target):
                await pilot.press("shift+up")
        await pilot.pause()
        assert order.lines == truth
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert grade.correct
        assert app.store.mastered(f"{PACK}/step-order")


async def test_order_wrong_then_reset(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "step-order")
        start = list(screen.query_one(OrderList).lines)
        await pilot.press("shift+down")
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert not grade.correct
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert screen.query_one(OrderList).lines == start
        assert screen.query_one(FeedbackPanel).grade is None


async def test_choice_drill_wrong_choice_explains_why(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "no-grad-does")
        options = screen.query_one(OptionList)
        texts = [str(o.prompt) for o in options.options]
        wrong = texts.index("Sets every .grad to zero.")
        right = texts.index("Stops recording operations on the tape inside the block.")
        options.highlighted = wrong
        await pilot.press("enter")
        grade = await graded(app, pilot)
        assert not grade.correct and "zero_grad" in grade.feedback
        options.highlighted = right
        await pilot.press("enter")
        grade = await graded(app, pilot)
        assert grade.correct


async def test_code_drill_starter_fails_and_reference_idea_passes(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "outer")
        editor = screen.query_one(TextArea)
        assert editor.text.startswith("def outer(a, b):")
        assert editor.language == "python"
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert not grade.correct
        editor.load_text("def outer(a, b):\n    return a.unsqueeze(1) * b.unsqueeze(0)\n")
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert grade.correct, grade.feedback
        assert app.store.mastered(f"{PACK}/outer")


async def test_code_drill_refuses_forbidden_loops(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "outer")
        screen.query_one(TextArea).load_text(
            "def outer(a, b):\n    return torch.stack([x * b for x in a])\n"
        )
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert not grade.correct and "forbids" in grade.feedback


async def test_fix_drill_and_next_walks_the_queue(make_app):
    app = make_app()
    queue = [f"{PACK}/fix-grad", f"{PACK}/row-strides"]
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "fix-grad", queue)
        screen.query_one(TextArea).load_text(
            "w = torch.ones(3, requires_grad=True)\n(w * 2).sum().backward()\n"
        )
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert grade.correct
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        assert app.screen.full_id == f"{PACK}/row-strides"


async def test_lab_button_opens_the_lab_on_the_rendered_setup(make_app):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "row-strides")
        a, b = screen.variant.params["a"], screen.variant.params["b"]
        await pilot.click("#lab")
        await pilot.pause()
        assert type(app.screen).__name__ == "StrideLab"
        assert str(app.screen.values["setup"]).strip() == f"x = torch.zeros({a}, {b})"


async def test_code_drill_failure_shows_input_expected_got_and_index(make_app):
    import io

    from rich.console import Console

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "outer")
        screen.query_one(TextArea).load_text(
            "def outer(a, b):\n    return a[:, None] + b[None, :]\n"
        )
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert not grade.correct and grade.failure["index"] == [0, 0]
        panel = screen.query_one(FeedbackPanel)
        console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
        console.print(panel.content, end="")
        text = console.export_text()
        assert f"input:    {grade.failure['inputs']}" in text
        assert f"expected: {grade.failure['expected']}" in text
        assert f"got:      {grade.failure['got']}" in text
        assert "first difference at index [0, 0]" in text
