"""The live labs' screens, one folder each (``NAME/screen.py``, its widgets and its styles).

Which labs exist, and where each screen lives, is the table in ``tutor.content.labs``."""

from __future__ import annotations

from textual.screen import Screen

from tutor.content.labs import get_lab, resolve


def lab_screen(name: str, preset: dict[str, str] | None = None) -> Screen[None]:
    """A new screen for the lab ``name`` (KeyError if there is no such lab)."""
    screen: Screen[None] = resolve(get_lab(name).screen)(preset=preset)
    return screen
