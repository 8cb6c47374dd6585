"""Bursts collapse through Textual's own messages (``can_replace``): a burst of updates to the
loss curve draws once, from the last data; a burst of binding changes recomposes the footer once;
a burst of nudges in the logits lab runs the probe once, on the last logits. Nothing is lost at
the end of a burst, and a resize still redraws."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.loss_curve import LossCurve


class CurveApp(App[None]):
    """One loss curve, counting the times its plot is rebuilt and how many points it drew."""

    def compose(self) -> ComposeResult:
        yield LossCurve(id="curve")

    def on_mount(self) -> None:
        curve = self.query_one(LossCurve)
        self.drawn: list[int] = []
        rebuild = curve._redraw

        def counted() -> None:
            self.drawn.append(len(curve.plotted))
            rebuild()

        curve._redraw = counted  # type: ignore[method-assign]


async def test_a_burst_of_updates_draws_once_from_the_last_data():
    app = CurveApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        curve = app.query_one(LossCurve)
        app.drawn.clear()
        losses: list[float | None] = []
        for step in range(50):
            losses = [*losses, 10.0 / (step + 1)]
            curve.show(losses, 50)
        await pilot.pause()
        assert app.drawn == [50]  # one rebuild, and it saw every point
        curve.show([*losses, 0.1], 51)  # a lone update after the burst is drawn too
        await pilot.pause()
        assert app.drawn == [50, 51] and curve.plotted[-1] == 0.1


async def test_a_resize_redraws_with_marks_for_the_new_height():
    app = CurveApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        curve = app.query_one(LossCurve)
        curve.show([4.0, 2.0, 1.0], 3)
        await pilot.pause()
        assert curve._tick_count() == 5
        app.drawn.clear()
        await pilot.resize_terminal(60, 6)
        await pilot.pause()
        assert app.drawn and app.drawn[-1] == 3 and curve._tick_count() == 2


class FooterApp(App[None]):
    """A screen with a footer, counting the footer's recomposes."""

    def compose(self) -> ComposeResult:
        yield Static("body")
        yield KeyFooter()


async def test_a_burst_of_binding_changes_recomposes_the_footer_once(monkeypatch):
    count = 0
    recompose = KeyFooter.recompose

    async def counted(self: KeyFooter) -> None:
        nonlocal count
        count += 1
        await recompose(self)

    monkeypatch.setattr(KeyFooter, "recompose", counted)
    app = FooterApp()
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause()
        footer = app.query_one(KeyFooter)
        count = 0
        for _ in range(10):
            footer.bindings_changed(app.screen)
        await pilot.pause()
        await pilot.pause()
        assert count == 1
        footer.bindings_changed(app.screen)  # a change after the burst is drawn too
        await pilot.pause()
        await pilot.pause()
        assert count == 2
