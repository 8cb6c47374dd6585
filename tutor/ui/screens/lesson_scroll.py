"""The lesson's scrolling text: a scroll key is never lost while the lesson is still loading.

A lesson is mounted a few chunks at a time. A PageDown pressed before the rest is there would
find nothing (or too little) to scroll and be dropped; here the place it asked for is kept and
reached as the text grows. Keys pressed before the screen could take them are kept by the
screen (``LessonScreen.action_scroll_lesson``) and played once the text exists."""

from __future__ import annotations

import math

from textual.containers import VerticalScroll


class LessonScroll(VerticalScroll):
    """Scrolls the lesson; ``mounting`` is True until every chunk is mounted and drawn."""

    mounting = True
    """Whether chunks are still to come (a place past the end may exist soon)."""
    _wanted: float | None = None
    """A place asked for that the text was not long enough for yet."""

    def on_mount(self) -> None:
        self.watch(self, "virtual_size", self._resized, init=False)

    def _resized(self) -> None:
        self.call_after_refresh(self.grew)

    def done_loading(self) -> None:
        """Every chunk is mounted and drawn: a place asked for is as close as it gets."""
        self.mounting = False
        self.call_after_refresh(self.grew)

    def _page(self) -> int:
        """One page: the view's height (the terminal's, before the first layout)."""
        return self.scrollable_content_region.height or max(1, self.app.size.height - 2)

    def want(self, y: float) -> None:
        """Scroll to ``y``; if the text is not that long yet, get there as it grows."""
        self._wanted = y if self.mounting and y > self.max_scroll_y else None
        self._go(min(y, self.max_scroll_y))

    def _go(self, y: float) -> None:
        # a jump made on a lesson that had been mounting was sometimes left undrawn (the old
        # place stayed on screen until the next key): lay the view out again once it lands
        self.scroll_to(y=y, animate=False, on_complete=self._relayout)

    def _relayout(self) -> None:
        self.refresh(layout=True)

    def grew(self) -> None:
        """More text was laid out: go on toward the place asked for."""
        if self._wanted is None:
            return
        self._go(min(self._wanted, self.max_scroll_y))
        if self._wanted <= self.max_scroll_y or not self.mounting:
            self._wanted = None

    def action_page_down(self) -> None:
        self.want((self._wanted or self.scroll_y) + self._page())

    def action_scroll_down(self) -> None:
        self.want((self._wanted or self.scroll_y) + 1)

    def action_scroll_end(self) -> None:
        self.want(math.inf)

    def action_page_up(self) -> None:
        self._wanted = None
        self._go(max(0, self.scroll_y - self._page()))

    def action_scroll_up(self) -> None:
        self._wanted = None
        self._go(max(0, self.scroll_y - 1))

    def action_scroll_home(self) -> None:
        self._wanted = None
        self._go(0)
