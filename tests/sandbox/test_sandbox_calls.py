"""Probe calls: only tutor.probes targets, JSON data back, prints and exceptions as verdicts,
and a probe module that fails to import breaks only its own calls."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tutor.sandbox import Sandbox, Status, supervisor

pytestmark = pytest.mark.timeout(120)


def test_backends_probe_reports_torch(sandbox):
    result = sandbox.call("tutor.probes.backends:report")
    assert result.status is Status.ok, result
    value = result.value
    assert value["torch"].startswith("2.")
    assert value["backends"]["cpu"]["available"] is True
    assert set(value["backends"]) == {"cpu", "cuda", "mps", "xla", "torchax", "inductor"}
    assert isinstance(value["backends"]["cuda"]["available"], bool)


def test_kwargs_reach_the_probe(sandbox):
    result = sandbox.call("tutor.probes.backends:report", import_xla=False)
    assert result.ok
    assert "detail" not in result.value["backends"]["xla"]


def test_unknown_kwarg_is_an_error(sandbox):
    result = sandbox.call("tutor.probes.backends:report", nonsense=1)
    assert result.status is Status.error
    assert result.exception.type == "TypeError"


@pytest.mark.parametrize(
    "target",
    ["os:system", "tutor.sandbox.agent:child_main", "tutor.probesx.a:b", "tutor.probes.backends"],
)
def test_targets_outside_probes_are_refused(sandbox, target):
    with pytest.raises(ValueError):
        sandbox.call(target)


def test_missing_probe_module_is_an_error(sandbox):
    result = sandbox.call("tutor.probes.does_not_exist:f")
    assert result.status is Status.error
    assert result.exception.type == "ModuleNotFoundError"


@pytest.fixture
def project_copy(tmp_path, monkeypatch):
    """A copy of the package with two extra probes: one that works, one that cannot import."""
    root = tmp_path / "proj"
    shutil.copytree(
        Path(supervisor.PROJECT_ROOT) / "tutor",
        root / "tutor",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    probes = root / "tutor" / "probes"
    (probes / "zz_broken.py").write_text("raise ImportError('this probe is broken')\n")
    (probes / "zz_echo.py").write_text(
        "import torch\n"
        "from pydantic import BaseModel\n\n"
        "class Echo(BaseModel):\n    shape: list[int]\n    said: str\n\n"
        "def echo(n: int, said: str) -> Echo:\n"
        "    print('probe printing')\n"
        "    return Echo(shape=list(torch.zeros(n, 2).shape), said=said)\n\n"
        "def boom() -> None:\n    raise KeyError('inside the probe')\n\n"
        "def not_json():\n    return object()\n"
    )
    monkeypatch.setattr(supervisor, "PROJECT_ROOT", str(root))
    return root


@pytest.mark.parametrize("layer", ["rlimits", "bwrap"])
def test_broken_probe_module_breaks_only_its_calls(project_copy, layer):
    from tutor.sandbox.containment import bwrap_works

    if layer == "bwrap" and not bwrap_works():
        pytest.skip("bubblewrap is not usable here")
    with Sandbox(containment=layer) as box:
        ready = box.start()
        assert "tutor.probes.zz_broken" in ready["probe_errors"]
        assert "this probe is broken" in ready["probe_errors"]["tutor.probes.zz_broken"]
        good = box.call("tutor.probes.zz_echo:echo", n=3, said="hi")
        assert good.status is Status.ok, good
        assert good.value == {"shape": [3, 2], "said": "hi"}
        assert good.stdout == "probe printing\n"
        bad = box.call("tutor.probes.zz_broken:anything")
        assert bad.status is Status.error
        raised = box.call("tutor.probes.zz_echo:boom")
        assert raised.status is Status.error
        assert raised.exception.type == "KeyError"
        assert "zz_echo.py" in raised.exception.traceback
        assert "agent.py" not in raised.exception.traceback
        odd = box.call("tutor.probes.zz_echo:not_json")
        assert odd.status is Status.error
        assert odd.exception.type == "TypeError"
        assert box.run("print('still fine')").stdout == "still fine\n"
