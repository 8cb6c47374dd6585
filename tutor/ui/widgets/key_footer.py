"""The footer every screen shows: on a narrow terminal it tightens so that every key fits.

It is also redrawn once per burst of key-binding changes: Textual's ``Footer`` schedules a full
recompose for every change of the screen's bindings, and a screen coming up (mounts, focus,
resume) changes them several times before its first frame. Here each change asks, after the
next refresh, for a ``Recompose`` message, and Textual hands the footer only the last of those
waiting in a row (``can_replace``). And each binding's key starts out compact, to be bound to the
footer's own setting right after: two restyles per key for nothing; here they start out as
compact as the footer."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.message import Message
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

    class Recompose(Message, bubble=False):
        """Compose the keys again; one replaces those waiting before it."""

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, KeyFooter.Recompose)

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
        """The screen's bindings changed: ask to recompose after the next refresh (a burst of
        changes asks in a row, and recomposes once)."""
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.post_message, self.Recompose())

    async def on_key_footer_recompose(self, message: Recompose) -> None:
        """The last of a burst of binding changes: draw the keys again."""
        await self.recompose()
