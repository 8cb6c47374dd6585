"""One attempt of a drill as the learner sees it: everything rendered with the params drawn
from its seed, and the kind's own parts (a starter, shuffled lines or choices)."""

from __future__ import annotations

import random

from tutor.content.models import Drill
from tutor.grading.kinds import kind_of
from tutor.grading.variants import Variant, draw_params, render_prose


def make_variant(full_id: str, drill: Drill, seed: int) -> Variant:
    """The attempt of ``drill`` (a content model) for ``seed``: what the drill screen shows.

    Order lines and choices are shuffled by ``random.Random(seed)``, never left as written
    (unless every item is the same)."""
    params = draw_params(drill.params, seed)
    variant = Variant(
        drill=full_id,
        seed=seed,
        params=params,
        prompt=render_prose(drill.prompt, params),
        setup=drill.setup_code(params),
        hints=[render_prose(h, params) for h in drill.hints],
        explain=render_prose(drill.explain, params),
    )
    kind_of(drill).fill_variant(drill, variant, random.Random(seed))
    return variant
