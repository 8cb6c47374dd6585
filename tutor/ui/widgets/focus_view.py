"""Never type blind, never miss what an answer got: the focused widget of a scrolling panel stays
in view or focus moves; what was just shown stays in view while it is laid out.

- When the panel scrolls (a verdict scrolled into view, PageDown, the mouse wheel, a resize) and
  the focused widget inside it leaves the view (for an editor: the line with its cursor), focus
  moves to the panel itself, where keys scroll and typing changes nothing; tab brings focus
  back to the first control and scrolls it into view. A widget focused below the fold (a
  drill's answer, when the drill opens at its top) keeps its focus until it has been in view.
- The learner typing in the focused widget brings it whole into view (an editor taller than
  the view: its cursor line).
- ``FocusScroll.show`` brings widgets into view (the first one's top, if they do not fit) and
  again after every layout that moves or resizes them (a verdict whose explanation is still
  being drawn, an editor that grew), until the learner scrolls or types."""

from __future__ import annotations

from textual import on
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input, OptionList, TextArea


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
    """A vertical scrolling panel whose focused widget never leaves its view unnoticed (after a
    scroll or resize, focus out of view moves to the panel: ``park_focus``), and which keeps
    what it was asked to ``show`` in view while it is laid out."""

    DEFAULT_CSS = """
    FocusScroll { layout: vertical; overflow-x: hidden; overflow-y: auto; }
    """
    BINDINGS = [
        Binding("ctrl+home", "scroll_home", "Top", show=False),
        Binding("ctrl+end", "scroll_end", "Bottom", show=False),
    ]

    _moved_since_layout = False
    _was_in_view = False
    """Whether the focused widget was in view before the panel moved: only then did the move
    take it out of view (a drill's answer below the fold keeps its focus as the learner reads
    down to it)."""
    _shown: tuple[Widget, ...] = ()
    """What ``show`` keeps in view (children of the panel), until the learner scrolls or types."""
    _shown_at: tuple[object, ...] | None = None
    """Where those were, and the panel's sizes, when last scrolled to."""
    _kept_y = 0.0
    """Where ``show`` last scrolled to: a scroll to anywhere else is the learner's."""

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", self._moved, init=False)
        # where a widget is comes from the screen's layout, which a scroll updates later (on
        # the screen's next update): look once that layout is made, not before
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def on_resize(self) -> None:
        self._moved()

    def _moved(self) -> None:
        if not self._moved_since_layout:  # where things were before the move, laid out
            focused = self.screen.focused
            self._was_in_view = focused is not None and in_view(focused, self)
        self._moved_since_layout = True
        if self._shown and self._shown_at is not None and self.scroll_y != self._kept_y:
            self._shown = ()  # scrolled by the learner (or by focus): they lead now

    def _laid_out(self, _screen: object) -> None:
        if self._moved_since_layout:
            self._moved_since_layout = False
            if self._was_in_view:
                park_focus(self)
        if self._shown:  # after the look above: a scroll made here is looked at next layout
            self._keep_shown()

    def show(self, *widgets: Widget) -> None:
        """Bring ``widgets`` (children of the panel, in order) into view, the first one's top
        if they do not all fit, now and after every layout that moves or resizes them, until
        the learner scrolls or types."""
        self._shown = widgets
        self._shown_at = None
        self.call_after_refresh(self._keep_shown)

    def _keep_shown(self) -> None:
        regions = [w.virtual_region_with_margin for w in self._shown if w.display]
        if not regions or not self.is_attached:
            return
        region = Region.from_union(regions)
        at = (region, self.virtual_size, self.scrollable_content_region.size)
        if at == self._shown_at:
            return
        self._shown_at = at
        # at once, not by an animation (until an animated scroll ends, the editor it moves
        # away keeps the focus: park_focus waits for it), after the next refresh (where the
        # move is laid out, so park_focus sees it)
        delta = self.scroll_to_region(region, animate=False)
        self._kept_y = self.scroll_y + delta.y

    def typed(self, widget: Widget) -> None:
        """The learner changed ``widget``: if it has focus, bring it whole into view (its top,
        if it is taller than the view); whatever ``show`` was keeping in view gives way."""
        self._shown = ()
        if widget.has_focus:
            self.scroll_to_widget(widget, animate=False, immediate=True)

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        self.typed(event.input)

    @on(OptionList.OptionHighlighted)
    def _option_moved(self, event: OptionList.OptionHighlighted) -> None:
        self.typed(event.option_list)

    @on(TextArea.Changed)
    def _text_changed(self, event: TextArea.Changed) -> None:
        self.typed(event.text_area)  # and its cursor line, if need be, by reveal_cursor


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
