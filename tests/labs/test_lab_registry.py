"""The "Adding a lab" checklist of docs/internals.md, enforced: every row of the lab table has
its folder, probe, data model, command, chapter, and its snapshot, Pilot, command and probe tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner
from pydantic import BaseModel

from tutor.cli import main
from tutor.content.labs import LAB_NAMES, LABS, Lab, get_lab, resolve
from tutor.ui.labs.base import LabScreen

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests" / "labs"
ids = [lab.name for lab in LABS]


def source(target: str) -> Path:
    """The file of the module named in ``"module:attribute"``."""
    return ROOT / (target.split(":")[0].replace(".", "/") + ".py")


def test_names_are_unique_and_plain():
    assert len(set(LAB_NAMES)) == len(LABS)
    assert all(name.isidentifier() and name.islower() for name in LAB_NAMES)
    with pytest.raises(KeyError):
        get_lab("no-such-lab")


@pytest.mark.parametrize("lab", LABS, ids=ids)
def test_the_lab_has_its_folder_screen_and_styles(lab: Lab):
    folder = ROOT / "tutor" / "ui" / "labs" / lab.name
    assert (folder / "__init__.py").is_file(), f"{folder}/__init__.py is missing"
    assert lab.screen.startswith(f"tutor.ui.labs.{lab.name}.screen:")
    screen = resolve(lab.screen)
    assert issubclass(screen, LabScreen), f"{lab.screen} must derive from LabScreen"
    assert lab.name == screen.LAB, f"{lab.screen} names the row {screen.LAB!r}"
    if screen.CSS_PATH:  # a lab with nothing of its own to style has no sheet
        assert (folder / str(screen.CSS_PATH)).is_file(), f"{screen.CSS_PATH} is not in {folder}"


@pytest.mark.parametrize("lab", LABS, ids=ids)
def test_the_probe_is_defined_beside_the_others(lab: Lab):
    module, function = lab.probe.split(":")
    assert module.startswith("tutor.probes.") and module.count(".") == 2
    path = source(lab.probe)
    assert path.is_file(), f"{path} is missing"
    # read, not imported: a probe imports torch, and only the runtime may
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert function in defined, f"{path} defines no function `{function}`"


@pytest.mark.parametrize("lab", LABS, ids=ids)
def test_the_data_model_is_a_torch_free_pydantic_model(lab: Lab):
    assert lab.data.startswith("tutor.probes.data_")
    model = resolve(lab.data)
    assert isinstance(model, type) and issubclass(model, BaseModel)


@pytest.mark.parametrize("lab", LABS, ids=ids)
def test_the_command_is_reachable_as_tutor_lab_name(lab: Lab):
    assert lab.command.endswith(f":{lab.name}")
    assert isinstance(resolve(lab.command), click.Command)
    result = CliRunner().invoke(main, ["lab", lab.name, "--help"])
    assert result.exit_code == 0, result.output
    listing = CliRunner().invoke(main, ["lab", "--help"]).output
    assert lab.name in listing and lab.title in listing


@pytest.mark.parametrize("lab", LABS, ids=ids)
def test_the_chapter_lists_the_lab(lab: Lab):
    chapters = yaml.safe_load((ROOT / "lessons" / "chapters.yaml").read_text())
    by_number = {c["number"]: c for c in chapters}
    assert lab.name in by_number[lab.chapter]["labs"], (
        f"lessons/chapters.yaml: chapter {lab.chapter} does not list `{lab.name}` in its labs"
    )


def test_every_lab_a_chapter_lists_is_in_the_table():
    chapters = yaml.safe_load((ROOT / "lessons" / "chapters.yaml").read_text())
    listed = {name for chapter in chapters for name in chapter.get("labs") or []}
    assert listed <= set(LAB_NAMES), f"not in tutor/content/labs.py: {listed - set(LAB_NAMES)}"


@pytest.mark.parametrize("lab", LABS, ids=ids)
def test_the_lab_has_its_tests(lab: Lab):
    """A Pilot test and a snapshot of the screen, `tutor lab NAME` run, and the probe run: in
    one file or in several (``test_lab_NAME_ui.py``, ``_cli.py``, ``_probe.py``)."""
    files = sorted(TESTS.glob(f"test_lab_{lab.name}.py")) + sorted(
        TESTS.glob(f"test_lab_{lab.name}_*.py")
    )
    assert files, f"no tests/labs/test_lab_{lab.name}*.py"
    text = "\n".join(f.read_text(encoding="utf-8") for f in files)
    assert "snap_compare" in text, f"the {lab.name} lab has no snapshot test"
    assert "run_test" in text, f"the {lab.name} lab has no Pilot test"
    assert '"lab"' in text and "invoke(main" in text, f"no test runs `tutor lab {lab.name}`"
    module = lab.probe.split(":")[0]
    assert module in text or lab.probe in text, f"no test runs the probe {lab.probe}"
    for f in files:
        ui = f.read_text(encoding="utf-8")
        if "run_test" in ui and "(sandbox" in ui:  # the module's sandbox lives in its loop
            assert 'pytestmark = pytest.mark.asyncio(loop_scope="module")' in ui, f.name
    shots = [TESTS / "__snapshots__" / f.stem for f in files]
    assert any(any(d.glob("*.svg")) for d in shots), f"no snapshot recorded for {lab.name}"


def test_lab_only_widgets_live_in_their_lab_folder():
    """A widget in tutor/ui/widgets/ is shared: some code outside one lab folder uses it."""
    users: dict[str, set[str]] = {}
    for path in (ROOT / "tutor").rglob("*.py"):
        rel = path.relative_to(ROOT).parts
        where = rel[3] if rel[:3] == ("tutor", "ui", "labs") and len(rel) > 4 else "shared"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "tutor.ui.widgets."
            ):
                users.setdefault(node.module, set()).add(where)
    lab_only = {m: u for m, u in users.items() if len(u) == 1 and u <= set(LAB_NAMES)}
    assert not lab_only, f"move these into their lab folder: {lab_only}"


def test_each_screen_names_its_row():
    for lab in LABS:
        assert lab.name == resolve(lab.screen).LAB


@pytest.mark.parametrize("lab", LABS, ids=ids)
def test_a_call_runs_under_the_limits_and_on_the_runtime_of_its_row(lab: Lab):
    call = lab.call()
    assert call.lab is lab and call.runtime == lab.runtime
    assert call.limits.timeout >= lab.limits.timeout and call.limits.memory_mb >= 1024
    # a lab on the xla runtime compiles its graphs first: the runtime's profile, as for snippets
    assert call.limits.profile == ("compile" if lab.runtime == "xla" else lab.limits.profile)


def test_limits_and_runtime_that_depend_on_what_the_lab_is_asked():
    guards, bench, train = get_lab("guards"), get_lab("bench"), get_lab("train")
    assert guards.call(backend="eager").limits.profile is None
    assert guards.call(backend="inductor").limits.profile == "compile"
    assert bench.call(code="fn = lambda: 1").options() == {"timeout": 60, "memory_mb": 2048}
    assert bench.call(code="fn = torch.compile(f)").options()["profile"] == "compile"
    eager, compiled, xla = (train.call(epochs=2, backend=b) for b in ("eager", "compile", "xla"))
    assert (eager.limits.timeout, eager.limits.profile, eager.runtime) == (60.0, None, None)
    assert (compiled.limits.timeout, compiled.limits.profile) == (330.0, "compile")
    assert (xla.runtime, xla.limits.profile) == ("xla", "compile")
    assert train.call(epochs=5).limits.timeout == 105.0
