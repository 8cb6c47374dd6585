"""What every `tutor lab NAME` command does the same way: its options come from the lab's row
(``options.click_param``), its run is the row's ``call_for`` of them, made in a fresh sandbox on
the runtime the row names under the row's limits, and it prints the data as one JSON object or
as text."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import click
from pydantic import BaseModel

from tutor.commands.labs.options import click_param
from tutor.content.labs import Lab, ProbeCall, Value, get_lab, resolve

M = TypeVar("M", bound=BaseModel)


def json_option() -> click.Option:
    """``--json``: print the data as one JSON object."""
    return click.Option(
        ["--json", "as_json"], is_flag=True, help="Print the data as one JSON object."
    )


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


def run_lab(lab: Lab, values: Mapping[str, Value], **extra: Any) -> Any:
    """The lab's data for its parameters' ``values`` (and ``extra`` probe arguments);
    arguments the row's ``check`` refuses are a usage error (before any sandbox starts)."""
    try:
        call = lab.call_for(values, **extra)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    return run_call(call, resolve(lab.data))


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


def lab_command(
    name: str,
    help: str,
    render: Callable[[Any], str],
    face: Callable[[Any], dict[str, Any]] | None = None,
) -> click.Command:
    """``tutor lab NAME``: an option (or argument) per parameter of the lab's row, and
    ``--json``; it runs the probe on them and prints ``face(data)`` or ``render(data)``."""
    lab = get_lab(name)

    def run(as_json: bool, **values: Value) -> None:
        echo_lab(run_lab(lab, values), as_json, render, face)

    params = [click_param(p) for p in lab.params]
    return click.Command(name, callback=run, params=[*params, json_option()], help=help)
