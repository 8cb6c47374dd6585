"""The footer every screen shows: on a narrow terminal it tightens so that every key fits.

It is also redrawn once per burst of key-binding changes: Textual's ``Footer`` schedules a full
recompose for every change of the screen's bindings, and a screen coming up (mounts, focus,
resume) changes them several times before its first frame. And each binding's key starts out
compact, to be bound to the footer's own setting right after: two restyles per key for
nothing; here they start out as compact as the footer."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

COMPACT_BELOW = 112
"""narrower than this, keys are drawn without padding."""
NO_PALETTE_BELOW = 90
"""narrower than this, the command palette's entry steps aside (``?`` still lists ctrl+p)."""


class KeyFooter(Footer):
    """Textual's footer, compact below ``COMPACT_BELOW`` columns and without the palette entry
    below ``NO_PALETTE_BELOW``, so a screen's keys are not cut off at 80 columns."""

    DEFAULT_CSS = """
    KeyFooter.-no-palette FooterKey.-command-palette {
        display: none;
    }
    KeyFooter.-compact FooterLabel {
        margin: 0 1 0 0;
    }
    """

    _recompose_due = False

    def on_resize(self, event: events.Resize) -> None:
        """Fit the keys to the new width."""
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        self.compact = width < COMPACT_BELOW
        self.set_class(width < NO_PALETTE_BELOW, "-no-palette")

    def compose(self) -> ComposeResult:
        """Textual's keys, each bound one already as compact as the footer (the command
        palette's key is not bound to it and keeps its own). The first time, the footer
        takes the terminal's width as its own (it spans the screen; a resize corrects it), so
        its keys are not restyled when it is first laid out."""
        if not self.children:
            self._fit(self.app.size.width)
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's bindings changed: recompose after the next refresh, once."""
        self._bindings_ready = True
        if not screen.app.app_focus or self._recompose_due:
            return
        if self.is_attached and screen is self.screen:
            self._recompose_due = True
            self.call_after_refresh(self._recompose_now)

    async def _recompose_now(self) -> None:
        self._recompose_due = False
        await self.recompose()
