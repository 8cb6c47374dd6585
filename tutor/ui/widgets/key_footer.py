"""The footer every screen shows: on a narrow terminal it tightens so that every key fits."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer

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

    def on_resize(self, event: events.Resize) -> None:
        """Fit the keys to the new width."""
        self.compact = event.size.width < COMPACT_BELOW
        self.set_class(event.size.width < NO_PALETTE_BELOW, "-no-palette")
