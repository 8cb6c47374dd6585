"""What every `tutor lab NAME` command does the same way: run the lab's probe in a fresh sandbox,
validate its data, and print it as one JSON object or as text."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click
from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def call_probe(target: str, timeout: float, memory_mb: int, **kwargs: Any) -> Any:
    """Run a probe in the sandbox; its JSON value, or exit 1 with the reason (on stderr, or as
    ``{"error": ...}`` on stdout under ``--json``)."""
    from tutor.commands.context import open_sandbox

    with open_sandbox() as sandbox:
        result = sandbox.call(target, timeout=timeout, memory_mb=memory_mb, **kwargs)
    if not result.ok:
        raise click.ClickException(result.message)
    return result.value


def probe_data(model: type[M], target: str, *, timeout: float, memory_mb: int, **kwargs: Any) -> M:
    """``call_probe``, its value validated as ``model``."""
    return model.model_validate(call_probe(target, timeout, memory_mb, **kwargs))


def echo_lab(
    data: M,
    as_json: bool,
    render: Callable[[M], str],
    face: Callable[[M], dict[str, Any]] | None = None,
) -> None:
    """Print ``data``: with ``as_json`` one JSON object (``face(data)``, by default the model's
    own JSON dump), else ``render(data)``."""
    if as_json:
        click.echo(json.dumps(face(data) if face else data.model_dump(mode="json")))
    else:
        click.echo(render(data))
