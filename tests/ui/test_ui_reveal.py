"""Showing the answer: the drill screen shows the variant's answer (torch's, for a predict
drill), and an attempt made afterwards is recorded, marked, and does not master the drill."""

from __future__ import annotations

from textual.widgets import Input

from tests.ui.test_ui_drill import PACK, graded, open_drill


async def test_answer_shown_then_typed_is_kept_but_not_mastery(make_app):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, "row-strides")
        b = screen.variant.params["b"]
        await pilot.press("ctrl+f")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = str(screen.query_one("#drill-answer").render())
        assert f"({b}, 1)" in shown and "do not count" in shown  # torch's own answer
        assert screen.query_one("#drill-explain").display
        assert "answer shown" in str(screen.query_one("#drill-title").render())

        screen.query_one(Input).value = f"({b}, 1)"
        await pilot.press("enter")
        grade = await graded(app, pilot)
        assert grade.correct
        (attempt,) = app.store.attempts(f"{PACK}/row-strides")
        assert attempt.correct and attempt.revealed
        assert not app.store.mastered(f"{PACK}/row-strides")
        assert app.store.next_review(f"{PACK}/row-strides") is None


async def test_a_choice_answer_is_read_from_the_drill(make_app, catalog):
    drill = next(r for r in catalog.drills() if r.drill.kind == "choice")
    right = next(c.answer for c in drill.drill.choices if c.correct)
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(app, pilot, drill.drill.id)
        await pilot.click("#reveal")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert right.strip()[:30] in str(screen.query_one("#drill-answer").render())


async def test_the_why_is_scrolled_into_view_at_80x24(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(app, pilot, "row-strides")
        b = screen.variant.params["b"]
        await pilot.press(*f"({b}, 1)", "enter")
        grade = await graded(app, pilot)
        assert grade.correct
        await pilot.pause()
        explain = screen.query_one("#drill-explain")
        scroll = screen.query_one("#drill-main")
        top = scroll.scroll_y
        bottom = top + scroll.scrollable_content_region.height
        region = explain.virtual_region
        assert explain.display and region.y >= top and region.bottom <= bottom


async def test_a_fix_drills_verdict_is_scrolled_into_view_at_80x24(make_app):
    from textual.widgets import TextArea

    from tutor.ui.widgets.feedback import FeedbackPanel

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(app, pilot, "fix-grad")
        notes = "".join(
            f"# note {i}: the tape records only what requires grad\n" for i in range(12)
        )
        editor = screen.query_one(TextArea)
        editor.text = notes + "w = torch.ones(3))\n(w * 2).sum().backward()\n"
        editor.focus()
        editor.move_cursor((3, 0))  # editing near the top, as a learner does
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert (await graded(app, pilot)).status == "invalid"
        await pilot.press("ctrl+r")  # start again from the starter, and submit once more
        await pilot.pause()
        editor.text = notes + "w = torch.ones(3)\n(w * 2).sum().backward()\n"
        editor.move_cursor((3, 0))
        await pilot.pause()
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert grade is not None and not grade.correct
        await pilot.pause()
        panel = screen.query_one(FeedbackPanel)
        scroll = screen.query_one("#drill-main")
        top = scroll.scroll_y
        bottom = top + scroll.scrollable_content_region.height
        region = panel.virtual_region
        assert region.height and region.y >= top and region.bottom <= bottom, (region, top, bottom)


async def test_the_answer_is_scrolled_into_view_at_80x24(make_app):
    from textual.widgets import TextArea

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(app, pilot, "fix-grad")
        editor = screen.query_one(TextArea)
        editor.text = "".join(f"# line {i}\n" for i in range(14)) + "w = torch.ones(3)\n"
        editor.focus()
        editor.move_cursor((2, 0))
        await pilot.pause()
        await pilot.press("ctrl+f")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        shown = screen.query_one("#drill-answer")
        lines = shown.render_lines(shown.region.reset_offset)
        assert "requires_grad=True" in "".join(strip.text for strip in lines)
        scroll = screen.query_one("#drill-main")
        top, region = scroll.scroll_y, shown.virtual_region
        bottom = top + scroll.scrollable_content_region.height
        assert region.height and region.y >= top and region.bottom <= bottom, (region, top, bottom)
