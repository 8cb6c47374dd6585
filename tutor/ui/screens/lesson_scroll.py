"""The lesson's scrolling text: a scroll key is never lost while the lesson is still loading.

A lesson is mounted a few chunks at a time. A PageDown pressed before the rest is there would
find nothing (or too little) to scroll and be dropped; here the place it asked for is kept and
reached as the text grows. Keys pressed before the screen could take them are kept by the
screen (``LessonScreen.action_scroll_lesson``) and played once the text exists."""

from __future__ import annotations

import math

from textual.containers import VerticalScroll


class LessonScroll(VerticalScroll):
    """Scrolls the lesson; ``loading`` is True until every chunk is mounted."""

    loading = True
    """Whether chunks are still to come (a place past the end may exist soon)."""
    _wanted: float | None = None
    """A place asked for that the text was not long enough for yet."""

    def on_mount(self) -> None:
        self.watch(self, "virtual_size", lambda: self.call_after_refresh(self.grew), init=False)

    def done_loading(self) -> None:
        """Every chunk is mounted and drawn: a place asked for is as close as it gets."""
        self.loading = False
        self.call_after_refresh(self.grew)

    def _page(self) -> int:
        """One page: the view's height (the terminal's, before the first layout)."""
        return self.scrollable_content_region.height or max(1, self.app.size.height - 2)

    def want(self, y: float) -> None:
        """Scroll to ``y``; if the text is not that long yet, get there as it grows."""
        self._wanted = y if self.loading and y > self.max_scroll_y else None
        self.scroll_to(y=min(y, self.max_scroll_y), animate=False, immediate=True, force=True)

    def grew(self) -> None:
        """More text was laid out: go on toward the place asked for."""
        if self._wanted is None:
            return
        self.scroll_to(
            y=min(self._wanted, self.max_scroll_y), animate=False, immediate=True, force=True
        )
        if self._wanted <= self.max_scroll_y or not self.loading:
            self._wanted = None

    def action_page_down(self) -> None:
        self.want((self._wanted or self.scroll_y) + self._page())

    def action_scroll_down(self) -> None:
        self.want((self._wanted or self.scroll_y) + 1)

    def action_scroll_end(self) -> None:
        self.want(math.inf)

    def action_page_up(self) -> None:
        self._wanted = None
        self.scroll_to(y=max(0, self.scroll_y - self._page()), animate=False)

    def action_scroll_up(self) -> None:
        self._wanted = None
        self.scroll_to(y=max(0, self.scroll_y - 1), animate=False)

    def action_scroll_home(self) -> None:
        self._wanted = None
        self.scroll_to(y=0, animate=False)
