"""Navigation requests that widgets and screens post up to the app.

The app is the navigator: a widget never pushes a screen itself, it posts one of these and
``TutorApp`` opens the right screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.message import Message


@dataclass
class OpenLesson(Message):
    """Open the lesson of ``chapter``."""

    chapter: int


@dataclass
class OpenDrills(Message):
    """Open the drill list of ``chapter`` (every drill when None)."""

    chapter: int | None = None


@dataclass
class OpenDrill(Message):
    """Open one drill, by full id; ``queue`` is the list it belongs to (for "next")."""

    full_id: str
    queue: list[str] = field(default_factory=list)


@dataclass
class OpenLab(Message):
    """Open the live lab ``name`` with an optional preset (a `lab:` query or a drill setup)."""

    name: str
    preset: dict[str, str] | None = None


@dataclass
class OpenReviews(Message):
    """Open today's reviews."""


@dataclass
class OpenDoctor(Message):
    """Open the doctor screen."""
