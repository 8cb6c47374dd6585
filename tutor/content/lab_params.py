"""A lab's parameters, declared once in its row (``tutor.content.labs``) and drawn twice: as the
click options of ``tutor lab NAME`` (``tutor/commands/labs/options.py``) and as the controls of
the lab's screen (``tutor/ui/labs/controls.py``). Both read and check a value the same way, here:
what a learner types in a field, what a lesson's ``lab:`` link presets and what an option is
given are one text, turned into the probe's value by ``Param.parse`` with the same sentence when
it is wrong. Torch-free."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["text", "code", "int", "float", "choice", "flag"]
"""What a parameter holds: one line of text, code (several lines), a whole number, a number,
one of ``choices``, or yes/no."""
Control = Literal["input", "select", "checkbox", "editor", "none"]
"""How a screen lets the learner set it (``none``: the screen sets it its own way, or only the
command line can)."""
Value = str | int | float | bool | list[int] | list[float] | None
"""A parameter's value, as the probe takes it (JSON)."""

_CONTROL: dict[str, Control] = {
    "text": "input",
    "code": "editor",
    "int": "input",
    "float": "input",
    "choice": "select",
    "flag": "checkbox",
}
_TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Param:
    """One parameter of a lab: what the probe is called with, how it is written, how it is
    checked, and how its control looks."""

    key: str
    """Its name in a lesson's ``lab:NAME?key=value`` link and on the command line (``--key``,
    underscores as dashes); the control's id is ``NAME-key`` (dashes too)."""
    kind: Kind = "text"
    """What it holds."""
    default: Value = None
    """Its value when nothing sets it (None: none, where the probe has its own; for a parsed
    text, the text)."""
    help: str = ""
    """One line for ``tutor lab NAME --help``."""
    arg: str = ""
    """The probe's keyword for it, when that is not ``key``."""
    choices: tuple[str | int | None, ...] = ()
    """The values a ``choice`` (or an ``int`` shown as a select) may take."""
    low: float | None = None
    """The least a number may be."""
    high: float | None = None
    """The most a number may be."""
    width: str = ""
    """The control's width, as a style sheet writes it (``16``, ``1fr``; "": the sheet's)."""
    label: str = ""
    """Its name as the learner reads it: in errors, a checkbox's text, a compact field's label,
    and a field's border title unless ``title`` says more; "": none, and errors use ``key``."""
    title: str = ""
    """A field's border title when it says more than ``label`` ("tensor expression · enter
    runs")."""
    placeholder: str = ""
    """What an empty field shows."""
    shown: str = "{}"
    """How a select shows a choice (``{} workers``); None reads ``–``."""
    parse: str = ""
    """``module:function`` (torch-free) that turns a text into the probe's value, raising
    ``ValueError`` with a sentence (a list of logits, a shape, batch sizes)."""
    positional: bool = False
    """On the command line, an argument (``CODE``) instead of an option."""
    metavar: str = ""
    """The argument's name in ``--help`` (``MODULE_EXPR``); "": ``key`` in capitals."""
    control: Control | None = None
    """How the screen sets it; None: by kind (a select for ``choice`` and for an ``int`` with
    ``choices``, a checkbox for ``flag``, an editor for ``code``, else a field)."""
    also: str = ""
    """Another preset key that sets it when ``key`` is absent (a drill's ``setup``)."""

    @property
    def name(self) -> str:
        """How errors name it."""
        return self.label or self.key

    @property
    def probe_arg(self) -> str:
        """The probe's keyword for it."""
        return self.arg or self.key

    @property
    def option(self) -> str:
        """Its option on the command line (``--input-shape``)."""
        return "--" + self.key.replace("_", "-")

    @property
    def widget(self) -> Control:
        """The control that sets it on the screen."""
        if self.control is not None:
            return self.control
        return "select" if self.choices else _CONTROL[self.kind]

    @property
    def border_title(self) -> str:
        """The title drawn on the control's border."""
        return self.title or self.label

    @property
    def default_text(self) -> str:
        """The default as its control shows it."""
        return self.default if isinstance(self.default, str) else self.text_of(self.default)

    @property
    def required(self) -> bool:
        """Whether a blank text is an error rather than the default (code to run, an
        expression)."""
        return self.positional and self.kind in ("text", "code")

    def parse_text(self, text: str) -> Value:
        """``text`` (typed, preset, or given as an option) as the probe's value; ``ValueError``
        with a plain sentence when it is not one. A blank text is the default."""
        stripped = text.strip()
        if self.kind == "flag":
            return stripped.lower() in _TRUE
        if not stripped:
            if self.required:
                raise ValueError(f"{self.name} is empty: write something to run")
            return self.value_of_default()
        if self.kind in ("text", "code"):
            return self._parsed(text if self.kind == "code" else stripped)
        if self.choices:
            for choice in self.choices:
                if stripped == str(choice) or (choice is None and stripped == "none"):
                    return choice
            names = ", ".join("none" if c is None else str(c) for c in self.choices)
            raise ValueError(f"{self.name} must be one of {names}, not {stripped!r}")
        return self.checked(self._number(stripped))

    def value_of_default(self) -> Value:
        """The default as the probe takes it (a parsed text parsed)."""
        if isinstance(self.default, str) and self.parse:
            return self._parsed(self.default)
        return self.default

    def checked(self, value: int | float) -> int | float:
        """``value`` if it lies within ``low`` and ``high``, else ``ValueError`` saying so."""
        low = self.low if self.low is not None else value
        high = self.high if self.high is not None else value
        if not low <= value <= high:
            raise ValueError(
                f"{self.name} must be between {_number(low)} and {_number(high)}, "
                f"not {_number(value)}"
            )
        return value

    def text_of(self, value: Value) -> str:
        """``value`` as its control shows it."""
        if value is None or isinstance(value, bool):
            return ""
        if isinstance(value, list):
            return ", ".join(f"{v:g}" for v in value)
        if isinstance(value, float):
            return f"{value:g}"
        return str(value)

    def shown_as(self, choice: str | int | None) -> str:
        """A choice as a select shows it."""
        return self.shown.format("–" if choice is None else choice)

    def _number(self, text: str) -> int | float:
        try:
            return int(text) if self.kind == "int" else float(text)
        except ValueError:
            what = "a whole number" if self.kind == "int" else "a number"
            raise ValueError(f"{self.name} must be {what}, not {text!r}") from None

    def _parsed(self, text: str) -> Value:
        if not self.parse:
            return text
        parse: Callable[[str], Value] = resolve(self.parse)
        return parse(text)


def resolve(target: str) -> Any:
    """Import ``"module:attribute"`` and return the attribute (never for a probe: torch)."""
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


def _number(value: float) -> str:
    """A bound or a value as a sentence writes it (``100,000``, ``0.5``)."""
    return f"{value:,}" if float(value).is_integer() else f"{value:g}"
