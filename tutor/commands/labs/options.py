"""A lab's parameters as the options of ``tutor lab NAME``: each ``Param`` of its row becomes
one click argument or option (its type, bounds, choices, default and help), so the command asks
for exactly what the screen's controls ask for, checked the same way."""

from __future__ import annotations

from typing import Any

import click

from tutor.content.labs import Param


class Parsed(click.ParamType[Any, Any]):
    """A text the parameter's own ``parse`` turns into the probe's value (a list of logits,
    batch sizes, a shape), with the screen's sentence when it cannot."""

    def __init__(self, param: Param) -> None:
        self.param = param
        self.name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return self.param.parse_text(value)
        except ValueError as err:
            self.fail(str(err), param, ctx)


def _type(p: Param) -> click.ParamType[Any, Any] | None:
    """The click type that checks ``p`` as its control does."""
    if p.kind == "int":
        if p.low is None and p.high is None:
            return click.INT
        low = int(p.low) if p.low is not None else None
        return click.IntRange(low, int(p.high) if p.high is not None else None)
    if p.kind == "float":
        if p.low is None and p.high is None:
            return click.FLOAT
        return click.FloatRange(p.low, p.high)
    if p.kind == "choice":
        return click.Choice([str(c) for c in p.choices])
    return Parsed(p) if p.parse else None


def click_param(p: Param) -> click.Parameter:
    """``p`` as an argument (``positional``) or an option of ``tutor lab NAME``."""
    if p.positional:
        name = p.metavar or p.key.upper()
        return click.Argument(
            [p.key],
            required=p.default is None,
            default=p.default,
            type=_type(p),
            metavar=name if p.default is None else f"[{name}]",
        )
    if p.kind == "flag":
        return click.Option([p.option, p.key], is_flag=True, help=p.help)
    return click.Option(
        [p.option, p.key],
        type=_type(p),
        default=p.default,
        show_default=p.default not in (None, ""),
        help=p.help,
    )
