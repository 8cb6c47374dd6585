"""Pieces of the drill screen: the variant drawn for a seed and the answer widget per kind."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from textual.widget import Widget
from textual.widgets import Input, OptionList, TextArea
from textual.widgets.option_list import Option

from tutor.grading.variants import draw_params, render, render_prose
from tutor.ui.widgets.order_list import OrderList


@dataclass
class Variant:
    """One drawn variant of a drill: params, rendered text, and the shuffles for this seed."""

    seed: int
    params: dict[str, Any]
    prompt: str
    starter: str = ""
    setup: str = ""
    hints: list[str] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def shuffled(items: list[str], rng: random.Random) -> list[str]:
    """A shuffle of ``items`` that differs from the original order when it can."""
    out = list(items)
    if len(set(items)) < 2:
        return out
    while out == items:
        rng.shuffle(out)
    return out


def draw_variant(drill: Any, seed: int) -> Variant:
    """Draw params for ``seed`` and render everything the learner sees."""
    params = draw_params(drill.params, seed)
    rng = random.Random(seed)
    variant = Variant(
        seed=seed,
        params=params,
        prompt=render_prose(drill.prompt, params),
        setup=render(drill.setup, params) if drill.setup else "",
        hints=[render_prose(h, params) for h in drill.hints],
    )
    if drill.kind in ("code", "fix"):
        variant.starter = render(drill.starter, params)
    elif drill.kind == "choice":
        variant.choices = shuffled([render_prose(c.answer, params) for c in drill.choices], rng)
    elif drill.kind == "order":
        variant.lines = shuffled([render(line, params) for line in drill.lines], rng)
    return variant


def answer_widget(kind: str, variant: Variant) -> Widget:
    """The input that suits the drill kind, filled with its starting state."""
    if kind == "predict":
        return Input(
            placeholder="what does torch give? e.g. (1, 12, 4) or RuntimeError", id="answer"
        )
    if kind == "choice":
        return OptionList(
            *[Option(c, id=str(i)) for i, c in enumerate(variant.choices)], id="answer"
        )
    if kind == "order":
        order = OrderList(id="answer")
        order.lines = list(variant.lines)
        return order
    return TextArea.code_editor(variant.starter, language="python", id="answer")


def editor_theme(dark: bool) -> str:
    """The code editor's highlighting theme that reads well on the app theme."""
    return "css" if dark else "github_light"


def read_answer(kind: str, widget: Widget) -> str:
    """The learner's answer as the grader takes it (see the drill CLI contract)."""
    if isinstance(widget, Input):
        return widget.value
    if isinstance(widget, OrderList):
        return "\n".join(widget.lines)
    if isinstance(widget, TextArea):
        return widget.text
    if isinstance(widget, OptionList):
        option = widget.highlighted_option
        return str(option.prompt) if option is not None else ""
    raise TypeError(f"no answer in {widget!r}")


def reset_answer(kind: str, widget: Widget, variant: Variant) -> None:
    """Put the answer widget back to its starting state."""
    if isinstance(widget, Input):
        widget.value = ""
    elif isinstance(widget, OrderList):
        widget.lines = list(variant.lines)
    elif isinstance(widget, TextArea):
        widget.load_text(variant.starter)
    elif isinstance(widget, OptionList):
        widget.highlighted = 0
