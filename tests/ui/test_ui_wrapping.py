"""Nothing cut that matters at 80 columns: code blocks in lesson prose and in drill prompts wrap
as marked continuations (↪), the way lesson snippets do, instead of losing their ends."""

from __future__ import annotations

from textual.widgets.markdown import MarkdownFence

from tutor.content.catalog import load_packs
from tutor.content.lessons import load_lesson
from tutor.paths import PROJECT_ROOT
from tutor.ui.messages import OpenDrill, OpenLesson
from tutor.ui.screens.lesson import LessonScreen


def fence_lines(fence: MarkdownFence) -> list[str]:
    """The rows a code block draws, trailing spaces dropped."""
    code = fence.children[0]
    return [s.text.rstrip() for s in code.render_lines(code.region.reset_offset)]


def words(lines: list[str]) -> str:
    """The text of wrapped rows read as one line (the continuation marks left out)."""
    return " ".join(" ".join(lines).replace("↪", " ").split())


async def test_a_lesson_code_comment_wraps_instead_of_being_cut(make_app, catalog):
    catalog.lessons[9] = load_lesson(PROJECT_ROOT / "lessons" / "09-performance.md")
    app = make_app(catalog=catalog, warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.post_message(OpenLesson(9))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        fence = next(f for f in screen.query(MarkdownFence) if "drain anything queued" in f.code)
        fence.scroll_visible(animate=False)
        await pilot.pause()
        lines = fence_lines(fence)
        assert all(len(line) <= fence.region.width for line in lines)
        assert fence.max_scroll_x == 0  # nothing hidden to the right
        assert "drain anything queued before the clock starts" in words(lines)
        assert any(line.strip().startswith("↪") for line in lines)
        assert fence.region.right <= screen.query_one("#lesson-scroll").region.right


async def test_a_drill_prompt_code_comment_wraps_instead_of_being_cut(make_app, catalog):
    packs, problems = load_packs([PROJECT_ROOT / "drills" / "06-guards.yaml"])
    assert not problems
    catalog.packs += packs
    ref = next(r for r in catalog.drills() if r.drill.id == "compiles-for-dtypes")
    app = make_app(catalog=catalog, warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill(ref.full_id))
        await pilot.pause()
        await pilot.pause()
        fence = app.screen.query_one("#drill-prompt").query_one(MarkdownFence)
        lines = fence_lines(fence)
        assert all(len(line) <= fence.region.width for line in lines)
        assert "# count appends each graph to `graphs`" in words(lines)
