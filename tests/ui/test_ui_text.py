"""Text that reads right: a drill's choices, order lines, hints and the feedback quoting them
show their Markdown (no raw backticks), and a choice drawn that way still grades as written."""

from __future__ import annotations

from textual.widgets import OptionList

from tests.ui.test_ui_drill import graded
from tutor.content.catalog import load_packs
from tutor.grading.choices import quote_line
from tutor.paths import PROJECT_ROOT
from tutor.ui.messages import OpenDrill
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.inline_text import CODE, inline
from tutor.ui.widgets.order_list import OrderList


def drawn(widget) -> str:
    """The text a widget draws, rows joined."""
    return "\n".join(s.text for s in widget.render_lines(widget.region.reset_offset))


def styles_of(content, part: str) -> set[str]:
    """The styles of the spans that cover ``part`` of ``content``'s text."""
    start = content.plain.index(part)
    end = start + len(part)
    return {str(s.style) for s in content.spans if s.start <= start and s.end >= end}


def test_inline_markdown_draws_code_and_emphasis_and_nothing_else():
    quoted = inline("Line 3, ``a `b` c``, and `` `x` ``, is late.")
    assert quoted.plain == "Line 3, a `b` c, and `x`, is late."
    assert CODE in styles_of(quoted, "a `b` c") and CODE in styles_of(quoted, "`x`")
    prose = inline("Line 3 (" + quote_line("The worker's `collate_fn` queues it.") + ") is late.")
    assert prose.plain == "Line 3 (“The worker's collate_fn queues it”) is late."
    hint = inline("Pad to the longest sequence of *this* batch, **not** `max_len`.")
    assert hint.plain == "Pad to the longest sequence of this batch, not max_len."
    assert "italic" in styles_of(hint, "this") and "bold" in styles_of(hint, "not")
    assert CODE in styles_of(hint, "max_len")
    for code in ("y = a*b*c", "f(*args, **(kwargs or {}))", "def __init__(self):", "2 ** 10"):
        assert inline(code).plain == code  # code in an order line is never mangled
    assert inline("a lone ` stays").plain == "a lone ` stays"
    assert inline("[bold]not markup[/]").plain == "[bold]not markup[/]"


def test_feedback_quotes_a_line_of_prose_so_its_markdown_still_reads():
    assert quote_line(" optimizer.step() ") == "`optimizer.step()`"
    assert quote_line("The worker's `collate_fn` batches.") == (
        "“The worker's `collate_fn` batches”"
    )
    assert quote_line("The backend compiles the graph.") == "“The backend compiles the graph”"


def real_catalog(catalog, *files: str):
    """The fixture catalog plus some of the shipped packs."""
    packs, problems = load_packs([PROJECT_ROOT / "drills" / f for f in files])
    assert not problems
    catalog.packs += packs
    return catalog


async def open_real(app, pilot, full_id: str):
    await pilot.pause()
    app.post_message(OpenDrill(full_id))
    await pilot.pause()
    await pilot.pause()
    return app.screen


async def test_order_lines_and_their_feedback_show_no_backticks(make_app, catalog):
    app = make_app(catalog=real_catalog(catalog, "05-loader.yaml"), warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_real(app, pilot, "loader/batch-journey")
        order = screen.query_one(OrderList)
        assert any("`" in line for line in order.lines)
        assert "collate_fn" in drawn(order) and "`" not in drawn(order)
        await pilot.press("ctrl+s")
        grade = await graded(app, pilot)
        assert not grade.correct and "“" in grade.feedback  # a line of prose, quoted
        feedback = drawn(screen.query_one(FeedbackPanel))
        assert "Line " in feedback and "`" not in feedback


async def test_choices_show_their_markdown_and_still_grade(make_app, catalog):
    app = make_app(catalog=real_catalog(catalog, "03-modules.yaml"), warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_real(app, pilot, "modules-own-parameters/call-not-forward")
        options = screen.query_one(OptionList)
        right = next(i for i, c in enumerate(screen.variant.choices) if "`__call__`" in c)
        assert "`" not in drawn(options) and "__call__" in drawn(options)
        options.highlighted = right
        await pilot.press("enter")
        grade = await graded(app, pilot)
        assert grade.correct


async def test_hints_show_their_markdown(make_app, catalog):
    app = make_app(catalog=real_catalog(catalog, "05-loader.yaml"), warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_real(app, pilot, "loader/shard-the-stream")
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.pause()
        hints = drawn(screen.query_one("#drill-hints"))
        assert "Inside __iter__, get_worker_info() says" in hints and "`" not in hints


async def test_the_lab_picker_names_the_lab_of_each_link(make_app, catalog):
    from tutor.content.lessons import load_lesson
    from tutor.ui.messages import OpenLesson
    from tutor.ui.screens.pickers import LinkPicker

    catalog.lessons[6] = load_lesson(PROJECT_ROOT / "lessons" / "06-guarded-capture.md")
    app = make_app(catalog=catalog, warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.post_message(OpenLesson(6))
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LinkPicker)
        listed = drawn(app.screen.query_one(OptionList))
        assert "Benchmark lab  ·  eagerly in the benchmark lab" in listed
        assert "Benchmark lab  ·  compiled with inductor" in listed
        assert "Guard viewer" in listed and "`" not in listed


async def test_a_status_line_draws_its_code_spans():
    from textual.app import App, ComposeResult

    from tutor.ui.widgets.run_status import RunStatus

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield RunStatus()

    app = One()
    async with app.run_test(size=(80, 5)) as pilot:
        status = app.query_one(RunStatus)
        status.message = "the xla runtime is not built: run `make xla-runtime`"
        await pilot.pause()
        assert str(status.render()) == "the xla runtime is not built: run make xla-runtime"
