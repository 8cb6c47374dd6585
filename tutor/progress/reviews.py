"""Spaced repetition: each attempt becomes an FSRS rating that reschedules its drill.

Intervals are whole days (no same-session learning steps): a drill comes back on a later day
as a fresh variant, so the learner recalls the idea rather than the answer. ``fsrs`` is
imported on first use (a store opens before the first frame; scheduling comes later).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import fsrs

#: A correct answer faster than this, with no hint, counts as easy.
EASY_SECONDS = 20.0
#: A correct answer slower than this counts as hard.
SLOW_SECONDS = 180.0


@cache
def _scheduler() -> fsrs.Scheduler:
    import fsrs

    return fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def rating_for(correct: bool, hints_used: int, seconds: float) -> fsrs.Rating:
    """The FSRS rating of one attempt, from correctness, hints taken and time taken."""
    from fsrs import Rating

    if not correct:
        return Rating.Again
    if hints_used >= 1 or seconds > SLOW_SECONDS:
        return Rating.Hard
    if seconds <= EASY_SECONDS:
        return Rating.Easy
    return Rating.Good


def new_card() -> fsrs.Card:
    """A card for a drill never reviewed before."""
    from fsrs import Card

    return Card()


def card_from_json(text: str) -> fsrs.Card:
    """A card as stored in the ``cards`` table."""
    from fsrs import Card

    return Card.from_json(text)


def review(card: fsrs.Card, rating: fsrs.Rating, when: datetime) -> fsrs.Card:
    """The card after a review with ``rating`` at ``when`` (aware datetime)."""
    updated, _log = _scheduler().review_card(card, rating, when)
    return updated
