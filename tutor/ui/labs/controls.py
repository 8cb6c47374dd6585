"""A lab's parameters as the controls of its screen: each ``Param`` of its row becomes the field,
select, checkbox or editor that sets it (its value, choices, placeholder, title and width from
the row), and is read back through the parameter's own ``parse_text``, with the same sentence the
command line gives when it is wrong."""

from __future__ import annotations

from typing import Any, Literal, cast

from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, TextArea
from textual.widgets.select import NoSelection

from tutor.content.labs import Param, Value
from tutor.ui.widgets.code_editor import CodeEditor


def make_control(
    param: Param,
    text: str,
    value: Value,
    widget_id: str,
    *,
    compact: bool = False,
    editor: dict[str, Any] | None = None,
) -> Widget:
    """The control that sets ``param``, showing ``text`` (a field, an editor) or ``value`` (a
    select, a checkbox). ``compact``: drawn without a border (its label stands before it);
    ``editor``: more options for an editor (line numbers, a theme)."""
    control: Widget
    kind = param.widget
    if kind == "select":
        options = [(param.shown_as(choice), choice) for choice in param.choices]
        selected = cast("str | int | None", value)
        control = Select(options, value=selected, allow_blank=False, compact=compact, id=widget_id)
    elif kind == "checkbox":
        control = Checkbox(param.label or param.key, bool(value), id=widget_id)
    elif kind == "editor":
        control = CodeEditor(text, language="python", id=widget_id, **(editor or {}))
    else:
        # a number with a default takes digits only; one that may be left blank ("auto") any text
        number: Literal["integer", "number", "text"] = "text"
        if param.default is not None and param.kind in ("int", "float"):
            number = "integer" if param.kind == "int" else "number"
        control = Input(
            text, placeholder=param.placeholder, type=number, compact=compact, id=widget_id
        )
    titled = kind == "editor" or (kind in ("input", "select") and not compact)
    if param.border_title and titled:
        control.border_title = param.border_title
    if param.width:
        control.styles.width = param.width
    return control


def read_control(param: Param, control: Widget) -> Value:
    """What ``control`` says ``param`` is; ``ValueError`` with a sentence when it is no value."""
    if isinstance(control, Select):
        value = control.value
        return None if isinstance(value, NoSelection) else value
    if isinstance(control, Checkbox):
        return control.value
    if isinstance(control, TextArea):
        return param.parse_text(control.text)
    if isinstance(control, Input):
        return param.parse_text(control.value)
    raise TypeError(f"{control!r} is not a lab control")
