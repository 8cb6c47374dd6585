"""What a learner is shown of a drill beyond its prompt (torch-free): the code given before the
answer, the functions it may call, its rules, and the sizes one attempt's trials draw.

``tutor drill show`` and the drill screen show the same, so a prompt need not repeat any of it
and an instructor can see that two seeds try different inputs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from tutor.content.models import CodeDrill, Drill, Params
from tutor.content.template import render
from tutor.content.wording import listed
from tutor.grading.trials import AuthoringError, trial_specs

__all__ = ["Shown", "given_code", "rules_lines", "shown", "sizes_text"]


@dataclass
class Shown:
    """The learner-visible parts of one attempt of a drill."""

    setup: str = ""
    """the pack's and the drill's own setup, rendered (a used drill's reference is not shown)"""
    functions: list[str] = field(default_factory=list)
    """signatures of the functions the answer may call from the drills it uses"""
    rules: dict[str, Any] = field(default_factory=dict)
    """``allow``, ``forbid`` and ``max_lines``, those the drill sets"""
    trials: list[dict[str, Any]] = field(default_factory=list)
    """per trial of a code check: ``kind`` (case, edge, random) and the check's ``sizes``"""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def shown(drill: Drill, params: Params, seed: int) -> Shown:
    """What the attempt ``seed`` (its drill params ``params``) of ``drill`` shows."""
    own = render(drill.setup, params).strip("\n")
    setup = "\n".join(part for part in (drill.shared_setup.strip("\n"), own) if part)
    out = Shown(setup=setup, functions=list(drill.given_functions))
    if not isinstance(drill, CodeDrill):
        return out
    if drill.allow:
        out.rules["allow"] = list(drill.allow)
    if drill.forbid:
        out.rules["forbid"] = list(drill.forbid)
    if drill.max_lines is not None:
        out.rules["max_lines"] = drill.max_lines
    own_params = list(drill.check.params)
    try:
        specs = trial_specs(drill.check, params, seed)
    except AuthoringError:
        specs = []
    for spec in specs:
        sizes = {name: spec["params"][name] for name in own_params if name in spec["params"]}
        if spec["kind"] == "case":
            sizes = {}  # a case's sizes are those of its literal inputs
        out.trials.append({"kind": spec["kind"], "sizes": sizes})
    return out


def rules_lines(rules: dict[str, Any], functions: list[str]) -> list[str]:
    """The rules and the given functions as sentences for the learner."""
    lines = []
    if "allow" in rules:
        names = ", ".join(f"`{a}`" for a in rules["allow"])
        lines.append(f"Only {names} (plus Python operators, indexing and `.shape`).")
    if "forbid" in rules:
        lines.append("Not allowed: " + ", ".join(f"`{f}`" for f in rules["forbid"]) + ".")
    if "max_lines" in rules:
        n = rules["max_lines"]
        lines.append(f"At most {n} line{'s' if n != 1 else ''} of code.")
    if functions:
        lines.append("You may call: " + ", ".join(f"`{f}`" for f in functions) + ".")
    return lines


def _sizes(sizes: dict[str, Any]) -> str:
    return "(" + ", ".join(f"{k}={v}" for k, v in sizes.items()) + ")"


#: random trials listed one by one up to this many; more are said as each size's range
_LISTED = 6


def _ranges(sizes: list[dict[str, Any]]) -> str:
    """``"n from 2 to 12 and d from 1 to 8"``: the span of each whole-number size over the
    trials ("" when none is a whole number)."""
    spans: list[str] = []
    for name in sizes[0] if sizes else ():
        values = [s[name] for s in sizes if isinstance(s.get(name), int)]
        if not values:
            continue
        low, high = min(values), max(values)
        spans.append(f"{name}={low}" if low == high else f"{name} from {low} to {high}")
    return listed(spans)


def sizes_text(trials: list[dict[str, Any]]) -> str:
    """``"This attempt tries 1 case of the drill's own; edge sizes (n=0) (n=1); 3 random
    (n=4) (n=2) (n=5)."``: the inputs one attempt tries (many random ones as ranges: "20
    random sizes, n from 2 to 12 and d from 1 to 8")."""
    if not trials:
        return ""
    parts = []
    cases = sum(t["kind"] == "case" for t in trials)
    if cases:
        parts.append(f"{cases} case{'s' if cases != 1 else ''} of the drill's own")
    edges = [_sizes(t["sizes"]) for t in trials if t["kind"] == "edge"]
    if edges:
        parts.append("edge sizes " + " ".join(edges))
    random = [t for t in trials if t["kind"] == "random"]
    spans = _ranges([t["sizes"] for t in random]) if len(random) > _LISTED else ""
    if spans:
        parts.append(f"{len(random)} random sizes, {spans}")
    elif random and random[0]["sizes"]:
        parts.append(f"{len(random)} random " + " ".join(_sizes(t["sizes"]) for t in random))
    elif random:
        parts.append(f"{len(random)} random of the sizes the prompt gives")
    return "This attempt tries " + "; ".join(parts) + "."


def given_code(seen: Shown, prompt: str) -> str:
    """The code run before the answer, as the learner is shown it: none when it is empty or
    when the prompt already quotes every line of it."""
    code = [line for line in seen.setup.splitlines() if line.strip()]
    if code and not all(line.strip() in prompt for line in code):
        return seen.setup
    return ""
