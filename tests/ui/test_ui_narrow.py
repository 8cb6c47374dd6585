"""At 80 columns nothing a screen offers is cut off: every footer key, a long status line."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import key_to_character
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets._footer import FooterKey
from textual.widgets._select import SelectOverlay

from tutor.content.labs import LAB_NAMES
from tutor.ui.app import TutorApp
from tutor.ui.labs import lab_screen
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.help import EVERYWHERE, HelpScreen
from tutor.ui.widgets.key_footer import KeyFooter

WIDTH = 80


def cut_keys(app: App) -> list[str]:
    """The footer keys of the screen shown that do not fit whole in ``WIDTH`` columns, left of
    the palette's entry (docked at the right, it covers whatever runs under it)."""
    keys = [key for key in app.screen.query(FooterKey) if key.display]
    assert keys, "the screen has a footer with keys"
    palette = [key for key in keys if key.has_class("-command-palette")]
    end = palette[0].region.x if palette and palette[0].region.width else WIDTH
    return [
        f"{key.key_display} {key.description}"
        for key in keys
        if not key.has_class("-command-palette")
        and (key.region.right > end or key.region.width < len(key.description))
    ]


class OneScreen(App[None]):
    """A bare app with the tutor's own keys showing one screen, with no sandbox."""

    BINDINGS = TutorApp.BINDINGS

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self.sandbox = None
        self.shown = screen

    def on_mount(self) -> None:
        self.push_screen(self.shown)


def shown_bindings(node: DOMNode) -> list[Binding]:
    """The bindings of ``node`` the footer would show, one per action."""
    by_action = {b.action: b for _, b in node._bindings if b.show}
    return list(by_action.values())


def with_focus(screen: list[Binding], widget: Widget) -> list[Binding]:
    """The keys shown while ``widget`` has focus, as Textual resolves them: its own, then the
    screen's for the other keys, less those the widget takes as typing (an editor's letters)."""
    focused = shown_bindings(widget)
    taken = {key for b in focused for key in b.key.split(",")}

    def free(binding: Binding) -> bool:
        keys = binding.key.split(",")
        typed = all(widget.check_consume_key(k, key_to_character(k)) for k in keys)
        return not typed and not set(keys) & taken

    return focused + [b for b in screen if free(b)]


def all_keys_screen(bindings: list[Binding]) -> Screen:
    """A screen whose footer shows ``bindings`` all at once."""

    class AllKeys(Screen[None]):
        BINDINGS = bindings

        def compose(self) -> ComposeResult:
            yield KeyFooter()

    return AllKeys()


@pytest.mark.parametrize("name", LAB_NAMES)
async def test_every_key_of_a_lab_fits_at_80_columns(name):
    # which keys show depends on the data and the focus: check the most there can be, the
    # screen's own with those of each part that can take focus
    app = OneScreen(lab_screen(name))
    async with app.run_test(size=(WIDTH, 24)) as pilot:
        await pilot.pause()
        lab = app.shown
        parts = [w for w in lab.query("*") if w.focusable and not isinstance(w, SelectOverlay)]
        sets = {tuple(with_focus(shown_bindings(lab), w)) for w in parts}
    for bindings in sets | {tuple(shown_bindings(lab))}:
        probe = OneScreen(all_keys_screen(list(bindings)))
        async with probe.run_test(size=(WIDTH, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert not cut_keys(probe), [b.description for b in bindings]


@pytest.mark.parametrize(
    "drill", ["row-strides", "step-order", "no-grad-does", "outer", "fix-grad"]
)
async def test_every_key_of_a_drill_fits_at_80_columns(make_app, catalog, drill):
    # the most keys a drill offers: a lab to open and a next drill in the queue
    pack = catalog.pack("fixture-basics")
    at = next(i for i, d in enumerate(pack.drills) if d.id == drill)
    pack.drills[at] = pack.drills[at].model_copy(update={"lab": "stride"})
    ref = catalog.drill(f"fixture-basics/{drill}")
    assert ref.drill.lab == "stride"
    app = make_app(catalog=catalog, warm_sandbox=False)
    async with app.run_test(size=(WIDTH, 24)) as pilot:
        await pilot.pause()
        app.post_message(OpenDrill(ref.full_id, [ref.full_id, "fixture-basics/row-strides"]))
        await pilot.pause()
        await pilot.pause()
        assert not cut_keys(app)


@pytest.mark.parametrize("key", [None, "enter", "d", "r", "D", "question_mark"])
async def test_every_key_of_the_main_screens_fits_at_80_columns(make_app, key):
    app = make_app(warm_sandbox=False)
    async with app.run_test(size=(WIDTH, 24)) as pilot:
        await pilot.pause()
        if key:
            await pilot.press(key)
            await pilot.pause()
        if key == "question_mark":  # the help lists ctrl+p, which the narrow footer leaves out
            assert isinstance(app.screen, HelpScreen)
            assert EVERYWHERE[0][0] == "ctrl+p"
            return
        assert not cut_keys(app)


async def test_a_long_status_wraps_instead_of_being_cut():
    from textual.widgets import Static

    from tutor.ui.widgets.run_status import RunStatus

    class StatusApp(App[None]):
        def compose(self) -> ComposeResult:
            yield RunStatus(id="status")
            yield Static("below", id="below")

    app = StatusApp()
    async with app.run_test(size=(WIDTH, 24)) as pilot:
        status = app.query_one(RunStatus)
        status.message = "edit the config, then ctrl+r trains from scratch; " * 2
        await pilot.pause()
        assert status.size.height == 2
        assert app.query_one("#below").region.y == 2
        status.message = ""
        await pilot.pause()
        assert status.size.height == 1  # an empty status keeps its line: nothing jumps
