"""Never type blind: the focused widget of a scrolling panel stays in view, or focus moves.

When the panel scrolls (a verdict scrolled into view, PageDown, the mouse wheel, a resize) and
the focused widget inside it leaves the view (for an editor: the line with its cursor), focus
moves to the panel itself, where keys scroll and typing changes nothing; tab brings focus back
to the first control and scrolls it into view. While an editor is typed in, its cursor line is
kept in view of the panel."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import TextArea


def in_view(widget: Widget, panel: Widget) -> bool:
    """Whether ``widget`` (inside ``panel``) can be typed in without looking away: an editor's
    cursor line, or a row of any other widget's content, lies within the panel's view."""
    view = panel.scrollable_content_region
    if not widget.display or not view:
        return False
    if isinstance(widget, TextArea):
        y = widget.cursor_screen_offset.y
        return view.y <= y < view.bottom and widget.content_region.y <= y
    return widget.content_region.overlaps(view) or widget.region.overlaps(view)


def park_focus(panel: ScrollableContainer) -> None:
    """If the focused widget is inside ``panel`` but out of its view, focus ``panel``. Not while
    the panel is still scrolling (focus scrolls its widget into view by an animation: halfway,
    the widget is not in view yet); the scroll's last step looks again."""
    if not panel.is_attached or panel.app.animator.is_being_animated(panel, "scroll_y"):
        return
    focused = panel.screen.focused
    if focused is None or focused is panel or panel not in focused.ancestors:
        return
    if not in_view(focused, panel):
        panel.focus(scroll_visible=False)


class FocusScroll(ScrollableContainer):
    """A vertical scrolling panel whose focused widget never leaves its view unnoticed: after
    every scroll or resize, focus out of view moves to the panel (``park_focus``)."""

    DEFAULT_CSS = """
    FocusScroll { layout: vertical; overflow-x: hidden; overflow-y: auto; }
    """
    BINDINGS = [
        Binding("ctrl+home", "scroll_home", "Top", show=False),
        Binding("ctrl+end", "scroll_end", "Bottom", show=False),
    ]

    _moved_since_layout = False

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", self._moved, init=False)
        # where a widget is comes from the screen's layout, which a scroll updates later (on
        # the screen's next update): look once that layout is made, not before
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def on_resize(self) -> None:
        self._moved()

    def _moved(self) -> None:
        self._moved_since_layout = True

    def _laid_out(self, _screen: object) -> None:
        if self._moved_since_layout:
            self._moved_since_layout = False
            park_focus(self)


def reveal_cursor(editor: TextArea) -> None:
    """Scroll the editor's nearest scrolling ancestor so the cursor line is in its view."""
    panel = next((a for a in editor.ancestors if isinstance(a, ScrollableContainer)), None)
    if panel is None or not editor.has_focus:
        return
    view = panel.scrollable_content_region
    y = editor.cursor_screen_offset.y
    if view.y <= y < view.bottom:
        return
    line = Region(0, round(panel.scroll_y) + y - view.y, 1, 1)
    panel.scroll_to_region(line, animate=False, immediate=True)
