"""``tutor pack check``'s attack pass: grade a drill's generated forgeries like any answer.

The forgeries come from the runtime (``tutor.probes.forge:forgeries``, which runs the drill's own
reference): its results on one seed written out as constants, an echo of the inputs, an object
posing as a tensor, the reference with every setup name rebound. Each is graded on seeds other
than the one it was made from; one that passes is a defect of the drill: the check can be
satisfied without solving it. Torch-free: the caller grades.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tutor.content.models import CodeDrill

FORGE_TARGET = "tutor.probes.forge:forgeries"
#: the seed the forgeries are made from, and the seeds each is graded on
MADE_FROM = 0
GRADED_ON: dict[str, tuple[int, ...]] = {
    "constants": (1, 2),
    "echo": (1,),
    "claim": (1,),
    "rebind": (1,),
}
#: what each forgery is, and what a drill it fools should change
WHAT = {
    "constants": (
        "the reference's results on seed 0 written out as constants",
        "the check must compare against values it computes from data that differs between "
        "seeds (draw the data in `setup` from params, or compare with the reference on random "
        "trials)",
    ),
    "echo": ("a function that returns its first input", "add trials whose result differs from it"),
    "claim": (
        "an object whose class claims to be torch.Tensor",
        "compare with values the check computes itself",
    ),
    "rebind": (
        "the reference with every setup name rebound",
        "the answer's reading must refuse rebinding what the check relies on",
    ),
}


@dataclass(frozen=True)
class Finding:
    """A forgery that passed: which, on which seed, and what to change."""

    forgery: str
    seed: int

    def message(self, where: str) -> str:
        what, change = WHAT[self.forgery]
        return f"a forged answer ({what}) passes the check on {where}: {change}"


#: grades one answer text on some seeds: the seeds it passed on
Grader = Callable[[str, Sequence[int]], list[int]]


def forge_kwargs(drill: CodeDrill, setup: str, reference: str, trials: list[dict[str, Any]],
                 assert_code: str | None) -> dict[str, Any]:  # fmt: skip
    """The keyword arguments of the forge probe for ``drill``, rendered for ``MADE_FROM``."""
    return {
        "setup": setup,
        "reference": reference,
        "call": drill.check.call,
        "trials": trials,
        "assert_code": assert_code,
        "seed": MADE_FROM,
    }


def attack(forged: dict[str, str], grader: Grader) -> list[Finding]:
    """Grade each forgery on its seeds; one finding per forgery that passed somewhere."""
    found = []
    for name, text in forged.items():
        seeds = GRADED_ON.get(name)
        if not seeds:
            continue
        passed = grader(text, seeds)
        if passed:
            found.append(Finding(name, passed[0]))
    return found
