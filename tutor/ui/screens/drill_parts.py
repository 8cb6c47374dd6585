"""Pieces of the drill screen: the answer widget per kind, read and reset."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.content import Content
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import Input, OptionList, TextArea
from textual.widgets.option_list import Option

from tutor.grading.kinds.base import AnswerInput
from tutor.grading.variants import Variant
from tutor.ui.widgets.code_editor import CodeEditor
from tutor.ui.widgets.inline_text import inline
from tutor.ui.widgets.order_list import OrderList
from tutor.ui.widgets.wrapped_code import WrappedCode


def answer_widget(kind: AnswerInput, variant: Variant) -> Widget:
    """The input a drill kind declares (``Kind.answer_input``), filled with its starting
    state."""
    if kind == "line":
        return Input(
            placeholder="what does torch give? e.g. (1, 12, 4) or RuntimeError", id="answer"
        )
    if kind == "choice":
        return OptionList(
            *[Option(inline(c), id=str(i)) for i, c in enumerate(variant.choices)], id="answer"
        )
    if kind == "order":
        order = OrderList(id="answer")
        order.lines = list(variant.lines)
        return order
    # wrapped: a starter line cut at the edge hid the very code a fix drill is about
    return CodeEditor.code_editor(variant.starter, language="python", id="answer", soft_wrap=True)


SHOWN = (
    "Shown: answers to this drill now are practice; they are kept but do not count toward "
    "mastery or reviews."
)


def answer_view(kind: AnswerInput, text: str, dark: bool) -> Visual | RenderableType:
    """The revealed answer: code highlighted and wrapped as lesson code is, a choice or an order
    with its Markdown drawn, a value literally; then what showing it means."""
    note = Content.styled(SHOWN, "dim")
    if kind == "code":
        code = WrappedCode(text.rstrip(), theme="ansi_dark" if dark else "ansi_light")
        return Group(Text("Answer:", style="bold"), code, Text(SHOWN, style="dim"))
    body = inline(text.rstrip()) if kind in ("choice", "order") else Content(text.rstrip())
    head = Content.styled("Answer: ", "bold") + ("\n" if "\n" in text.strip() else "")
    return Content("\n").join([head + body, note])


def editor_theme(dark: bool) -> str:
    """The code editor's highlighting theme that reads well on the app theme."""
    return "css" if dark else "github_light"


def read_answer(widget: Widget, variant: Variant) -> str:
    """The learner's answer as the grader takes it (see the drill CLI contract): a choice is
    the text of the answer picked, as the drill writes it (its Markdown marks included)."""
    if isinstance(widget, Input):
        return widget.value
    if isinstance(widget, OrderList):
        return "\n".join(widget.lines)
    if isinstance(widget, TextArea):
        return widget.text
    if isinstance(widget, OptionList):
        option = widget.highlighted_option
        return variant.choices[int(option.id)] if option is not None and option.id else ""
    raise TypeError(f"no answer in {widget!r}")


def reset_answer(widget: Widget, variant: Variant) -> None:
    """Put the answer widget back to its starting state."""
    if isinstance(widget, Input):
        widget.value = ""
    elif isinstance(widget, OrderList):
        widget.lines = list(variant.lines)
    elif isinstance(widget, TextArea):
        widget.load_text(variant.starter)
    elif isinstance(widget, OptionList):
        widget.highlighted = 0
