"""The TUI runs content on the runtime it declares: an xla snippet (`r` in a lesson) or an xla
drill starts the xla runtime on demand, in the background, with its progress shown; where that
runtime is not built it says so plainly."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.ui.conftest import fixture_catalog
from tutor.content.catalog import load_packs
from tutor.content.lessons import load_lesson
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.services import services
from tutor.ui.widgets.snippet import SnippetView

pytestmark = pytest.mark.timeout(600)

XLA_PACK = Path(__file__).resolve().parents[1] / "grading" / "packs" / "xla.yaml"
LESSON = textwrap.dedent(
    """\
    ---
    chapter: 1
    title: Lazy tensors
    thesis: An XLA tensor is a promise.
    ---

    # Lazy tensors

    ```python run runtime=xla
    import torch_xla
    x = torch.arange(4.0, device=torch_xla.device())
    print(x.device, (x * 3).sum().item())
    ```

    ```output
    xla:0 18.0
    ```
    """
)
NOT_BUILT = "the xla runtime is not built: run `make xla-runtime`"


@pytest.fixture
def xla_app(tmp_path, make_app):
    lesson = tmp_path / "01-lazy.md"
    lesson.write_text(LESSON)
    catalog = fixture_catalog()
    packs, problems = load_packs([XLA_PACK])
    assert not problems
    catalog.packs.extend(packs)
    catalog.lessons[1] = load_lesson(lesson)
    return make_app(catalog=catalog)


async def run_first_snippet(app, pilot) -> tuple[SnippetView, list[str]]:
    """Open the lesson, press r, and collect what the snippet's live panel said until done."""
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, LessonScreen)
    view = app.screen.query(SnippetView).first()
    await pilot.press("r")
    seen = []
    while True:
        await pilot.pause(0.2)
        seen.append(str(view.query_one(".live").render()))
        if not view.running:
            break
    await app.workers.wait_for_complete()
    await pilot.pause()
    return view, seen


async def grade_first_xla_drill(app, pilot) -> tuple[str, list[str]]:
    await pilot.pause()
    app.post_message(OpenDrill("grading-xla/lazy-sum", []))
    await pilot.pause()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, DrillScreen)
    n = screen.variant.params["n"]
    await pilot.press(*str(float(n * (n - 1))), "enter")
    status = screen.query_one("RunStatus")
    seen = []
    while True:
        await pilot.pause(0.2)
        seen.append(status.message)
        if not status.running:
            break
    await app.workers.wait_for_complete()
    await pilot.pause()
    return status.message, seen


async def test_not_built_says_how_to_build_it(xla_app, tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_RUNTIME_XLA", str(tmp_path / "no-such-runtime"))
    async with xla_app.run_test(size=(110, 36)) as pilot:
        view, _ = await run_first_snippet(xla_app, pilot)
        # the command drawn as code, its backticks not shown
        assert str(view.query_one(".live").render()).strip() == NOT_BUILT.replace("`", "")
        assert view.live is None  # nothing ran
        await pilot.press("escape")
        await pilot.pause()
        message, _ = await grade_first_xla_drill(xla_app, pilot)
        assert message == NOT_BUILT


async def test_an_xla_snippet_and_drill_start_the_runtime_on_demand(xla_app):
    from tests.conftest import xla_runtime_or_skip

    xla_runtime_or_skip()
    async with xla_app.run_test(size=(110, 36)) as pilot:
        view, seen = await run_first_snippet(xla_app, pilot)
        assert any(s.startswith("starting the xla runtime… ") for s in seen), seen
        assert view.live is not None and view.live.stdout == "xla:0 18.0\n", view.live
        assert view.query_one(".live").has_class("-match")
        await pilot.press("escape")
        await pilot.pause()
        message, _ = await grade_first_xla_drill(xla_app, pilot)
        screen = xla_app.screen
        grade = screen.query_one("FeedbackPanel").grade
        assert grade is not None and grade.correct, (message, grade)


def test_snapshot_of_an_xla_snippet_when_the_runtime_is_not_built(
    snap_compare, make_app, tmp_path, monkeypatch
):
    monkeypatch.setenv("TUTOR_RUNTIME_XLA", str(tmp_path / "no-such-runtime"))
    lesson = tmp_path / "01-lazy.md"
    lesson.write_text(LESSON)
    catalog = fixture_catalog()
    catalog.lessons[1] = load_lesson(lesson)

    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        pilot.app.screen.query(SnippetView).first().focus()
        await pilot.press("r")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    app = make_app(catalog=catalog, warm_sandbox=False)
    assert snap_compare(app, terminal_size=(110, 30), run_before=run_before)


CHOICE_PACK = """\
pack: choice-xla
title: A choice on the xla runtime
chapter: 10
runtime: xla
drills:
  - id: sync-name
    kind: choice
    prompt: What cuts torch_xla's lazy graph and runs it?
    choices:
      - answer: "`torch_xla.sync()`"
        correct: true
      - answer: "`torch.cuda.synchronize()`"
        why: That waits for a CUDA stream; an XLA graph is cut by torch_xla.
"""


async def test_a_choice_on_an_xla_drill_starts_no_runtime(tmp_path, monkeypatch, make_app):
    # a pick is judged without running anything: no "starting the xla runtime…", no wait for
    # it, and an answer even where that runtime is not built
    monkeypatch.setenv("TUTOR_RUNTIME_XLA", str(tmp_path / "no-such-runtime"))
    path = tmp_path / "choice.yaml"
    path.write_text(CHOICE_PACK)
    catalog = fixture_catalog()
    packs, problems = load_packs([path])
    assert not problems
    catalog.packs.extend(packs)
    app = make_app(catalog=catalog)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill("choice-xla/sync-name", []))
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        grade = screen.query_one("FeedbackPanel").grade
        assert grade is not None and grade.status in ("correct", "wrong"), grade
        assert "runtime" not in screen.query_one("RunStatus").message
        assert not services(app).sandboxes._others  # the xla runtime was never made
