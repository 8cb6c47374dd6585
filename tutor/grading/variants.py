"""Variants: the params of a drill drawn from a seed, and the drill's text rendered with them.

Every attempt records its seed, so drawing the same params again from it replays the attempt
exactly. Drawing uses :class:`random.Random` seeded with the attempt's seed and walks the params
in the order the pack declares them; an ``{int: [lo, hi]}`` range is inclusive.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from tutor.content.models import (
    ChoiceParam,
    IntParam,
    Params,
    ParamValue,
)
from tutor.content.template import render as _render

__all__ = [
    "Params",
    "Variant",
    "draw_params",
    "new_seed",
    "render",
    "render_prose",
    "shuffled",
    "trial_params",
    "trial_seed",
]


def draw_params(params: Mapping[str, IntParam | ChoiceParam], seed: int) -> Params:
    """Draw a value for each param from ``seed`` (deterministic; declaration order)."""
    rng = random.Random(seed)
    drawn: Params = {}
    for name, spec in params.items():
        if isinstance(spec, IntParam):
            lo, hi = spec.int_
            drawn[name] = rng.randint(min(lo, hi), max(lo, hi))
        else:
            drawn[name] = rng.choice(list(spec.choice))
    return drawn


def render(text: str, params: Mapping[str, ParamValue]) -> str:
    """Render code (setup, ask, reference, ...) with the drawn params; other braces untouched."""
    return _render(text, params)


def render_prose(text: str, params: Mapping[str, ParamValue]) -> str:
    """Render prose shown to the learner (prompt, hints): ``{{``/``}}`` become single braces."""
    return _render(text, params, unescape=True)


def other_seeds(params: Mapping[str, IntParam | ChoiceParam], seed: int, count: int) -> list[int]:
    """``count`` seeds for more variants of the attempt ``seed`` (``check.variants``): fixed by
    ``seed``, each drawing params that differ from the attempt's own where the drill's params
    allow it (a few tries each), and from each other's."""
    rng = random.Random(f"variants:{seed}")
    own = draw_params(params, seed)
    found: list[int] = []
    drawn = [own]
    for _ in range(count):
        candidate = rng.randrange(1, 2**31)
        for _try in range(20):
            if draw_params(params, candidate) not in drawn and candidate != seed:
                break
            candidate = rng.randrange(1, 2**31)
        found.append(candidate)
        drawn.append(draw_params(params, candidate))
    return found


def trial_seed(seed: int, trial: int) -> int:
    """The seed of one random trial of a code check: distinct per (attempt seed, trial)."""
    return seed * 1000 + trial


def trial_params(params: Mapping[str, IntParam | ChoiceParam], seed: int, trial: int) -> Params:
    """The ``check.params`` drawn for one trial of a code check."""
    return draw_params(params, trial_seed(seed, trial))


@dataclass
class Variant:
    """A drill as one attempt shows it: everything rendered with the params drawn from ``seed``.

    ``lines`` (order drills) and ``choices`` (choice drills) come shuffled, deterministically
    per seed; an order drill's lines are never shown already in order.
    """

    drill: str
    seed: int
    params: Params
    prompt: str
    setup: str
    hints: list[str]
    explain: str
    starter: str = ""
    lines: list[str] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)


def new_seed(rng: random.Random | None = None, avoid: Collection[int] = ()) -> int:
    """A fresh seed for an attempt, in ``[1, 2**31)`` and not in ``avoid`` (recorded with the
    attempt, so it can be replayed). ``rng`` makes the sequence reproducible (the app given a
    seed); by default the system's randomness is used."""
    source = rng if rng is not None else random.SystemRandom()
    while True:
        seed = source.randrange(1, 2**31)
        if seed not in avoid:
            return seed


def shuffled(items: list[str], rng: random.Random) -> list[str]:
    """A shuffle of ``items`` that differs from the given order whenever two items differ."""
    out = list(items)
    if len(set(items)) < 2:
        return out
    while out == items:
        rng.shuffle(out)
    return out
