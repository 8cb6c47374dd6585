"""Variants: the params of a drill drawn from a seed, and the drill's text rendered with them.

Every attempt records its seed, so drawing the same params again from it replays the attempt
exactly. Drawing uses :class:`random.Random` seeded with the attempt's seed and walks the params
in the order the pack declares them; an ``{int: [lo, hi]}`` range is inclusive.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tutor.content.models import ChoiceParam, IntParam
from tutor.content.template import render as _render

__all__ = ["draw_params", "render", "render_prose", "trial_seed", "trial_params"]


def draw_params(params: Mapping[str, IntParam | ChoiceParam], seed: int) -> dict[str, Any]:
    """Draw a value for each param from ``seed`` (deterministic; declaration order)."""
    rng = random.Random(seed)
    drawn: dict[str, Any] = {}
    for name, spec in params.items():
        if isinstance(spec, IntParam):
            lo, hi = spec.int_
            drawn[name] = rng.randint(min(lo, hi), max(lo, hi))
        else:
            drawn[name] = rng.choice(list(spec.choice))
    return drawn


def render(text: str, params: Mapping[str, Any]) -> str:
    """Render code (setup, ask, reference, ...) with the drawn params; other braces untouched."""
    return _render(text, params)


def render_prose(text: str, params: Mapping[str, Any]) -> str:
    """Render prose shown to the learner (prompt, hints): ``{{``/``}}`` become single braces."""
    return _render(text, params, unescape=True)


def trial_seed(seed: int, trial: int) -> int:
    """The seed of one random trial of a code check: distinct per (attempt seed, trial)."""
    return seed * 1000 + trial


def trial_params(
    params: Mapping[str, IntParam | ChoiceParam], seed: int, trial: int
) -> dict[str, Any]:
    """The ``check.params`` drawn for one trial of a code check."""
    return draw_params(params, trial_seed(seed, trial))
