"""A lab is one declaration: every parameter of every row is an option (or argument) of `tutor lab
NAME` and a control of the lab's screen, both with the row's default, and the screen and the
command make the same call (arguments, limits, runtime) for the same choices. The call is taken
where each hands it to the sandbox (the sandbox itself is not started here: the probes and their
limits are run for real by each lab's own tests)."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from labs.harness import LabApp
from tutor.cli import main
from tutor.content.labs import LABS, Lab, Param, ProbeCall, get_lab, resolve
from tutor.ui.labs import lab_screen
from tutor.ui.labs.controls import read_control
from tutor.ui.labs.probe_call import SandboxFailed

ids = [lab.name for lab in LABS]

#: what each side is given, where the defaults alone make different runs: the screen trains one
#: epoch per call, so the command is asked for one epoch too
CHOICES: dict[str, tuple[dict[str, str], list[str]]] = {
    "train": ({"epochs": "1"}, ["--epochs", "1"])
}


def click_param_of(command: click.Command, param: Param) -> click.Parameter:
    """The click parameter that sets ``param`` (by name, or by its option)."""
    for found in command.params:
        if found.name == param.key or param.option in getattr(found, "opts", []):
            return found
    raise AssertionError(f"`tutor lab` has no option for {param.key!r}")


@pytest.mark.parametrize("lab", LABS, ids=ids)
def test_every_parameter_is_an_option_of_the_command(lab: Lab):
    command = resolve(lab.command)
    for param in lab.params:
        found = click_param_of(command, param)
        assert isinstance(found, click.Argument) == param.positional, param.key
        if param.kind == "flag":
            assert isinstance(found, click.Option) and found.is_flag, param.key
            continue
        if found.name == param.key:  # not a file the command reads (train's --config)
            assert found.default == param.default, param.key
        if param.kind == "choice":
            assert isinstance(found.type, click.Choice)
            assert list(found.type.choices) == [str(c) for c in param.choices]
        if param.kind == "int" and (param.low is not None or param.high is not None):
            assert isinstance(found.type, click.IntRange)
            assert (found.type.min, found.type.max) == (param.low, param.high), param.key
        if param.help and isinstance(found, click.Option):
            assert found.help == param.help


@pytest.mark.parametrize("lab", LABS, ids=ids)
async def test_every_parameter_the_screen_sets_has_its_control(lab: Lab):
    app = LabApp(lab_screen(lab.name), None)  # no sandbox: nothing runs
    defaults, problems = lab.preset({})
    assert problems == {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.lab
        for param in lab.params:
            found = screen.query(f"#{screen.control_id(param.key)}")
            if param.widget == "none":
                assert not found, f"{param.key} is set by no control, yet one is drawn"
                continue
            assert found, f"{lab.name}: no control for {param.key!r}"
            assert read_control(param, found.first()) == defaults[param.key], param.key


def recorded_cli_call(monkeypatch: pytest.MonkeyPatch, name: str, args: list[str]) -> ProbeCall:
    """The call `tutor lab NAME ARGS` hands to its sandbox (which is not started)."""
    calls: list[ProbeCall] = []

    def record(call: ProbeCall, model: object) -> None:
        calls.append(call)
        raise click.ClickException("recorded")

    monkeypatch.setattr("tutor.commands.labs.common.run_call", record)
    result = CliRunner().invoke(main, ["lab", name, *args])
    assert "recorded" in result.output + result.stderr, result.output + result.stderr
    (call,) = calls
    return call


async def recorded_screen_call(
    monkeypatch: pytest.MonkeyPatch, name: str, preset: dict[str, str]
) -> ProbeCall:
    """The first call the lab's screen hands to its sandbox (which is not started)."""
    calls: list[ProbeCall] = []

    async def record(host: object, call: ProbeCall, model: object, show: object = None) -> None:
        calls.append(call)
        raise SandboxFailed("recorded")

    monkeypatch.setattr("tutor.ui.labs.base.call_probe", record)
    app = LabApp(lab_screen(name, preset), object())  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
    return calls[0]


@pytest.mark.parametrize("lab", LABS, ids=ids)
async def test_the_screen_and_the_command_make_the_same_call(monkeypatch, lab: Lab):
    preset, args = CHOICES.get(lab.name, ({}, []))
    from_cli = recorded_cli_call(monkeypatch, lab.name, args)
    from_screen = await recorded_screen_call(monkeypatch, lab.name, preset)
    assert from_screen.kwargs == from_cli.kwargs
    assert from_screen.limits == from_cli.limits
    assert from_screen.runtime == from_cli.runtime == lab.call_for({}).runtime
    assert from_screen == from_cli


def test_a_choice_the_row_refuses_is_refused_alike():
    """Values fine one by one but not together: the command says so before any sandbox starts,
    in the words the screen uses."""
    result = CliRunner().invoke(main, ["lab", "ranks", "--world", "3", "--values", "1,2"])
    assert result.exit_code == 2
    assert "give one value per rank: 3 values, not 2" in result.stderr
    with pytest.raises(ValueError, match="give one value per rank: 3 values, not 2"):
        get_lab("ranks").call_for({"world": 3, "values": [1.0, 2.0]})
