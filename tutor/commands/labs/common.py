"""What every `tutor lab NAME` command does the same way: run the lab's probe in a fresh sandbox
on the runtime its row names, under the row's limits, validate its data, and print it as one JSON
object or as text."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click
from pydantic import BaseModel

from tutor.content.labs import ProbeCall, get_lab

M = TypeVar("M", bound=BaseModel)


def run_call(call: ProbeCall, model: type[M]) -> M:
    """Make ``call`` in a sandbox of its runtime (the runtime content declares wins over
    ``--runtime``, as for drills); its data as ``model``, or exit 1 with the reason (on stderr,
    or as ``{"error": ...}`` on stdout under ``--json``)."""
    from tutor.commands.context import open_sandbox, settings_of
    from tutor.sandbox.pool import runtime_of

    runtime = runtime_of(call.runtime, settings_of().runtime)
    with open_sandbox(runtime=runtime, needed_by=f"tutor lab {call.lab.name}") as sandbox:
        result = sandbox.call(call.lab.probe, **call.options(), **call.kwargs)
    if not result.ok:
        raise click.ClickException(result.message)
    return call.data(result.value, model)


def probe_data(model: type[M], name: str, **kwargs: Any) -> M:
    """Run the probe of the lab ``name`` with ``kwargs`` (``run_call`` of its row's call)."""
    return run_call(get_lab(name).call(**kwargs), model)


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
