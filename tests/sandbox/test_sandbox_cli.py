"""`tutor exec` and `tutor doctor` as documented: one JSON object, exit 0 on any verdict."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.timeout(300)


def tutor(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=280,
    )


@pytest.mark.parametrize("layer", ["rlimits", "auto"])
def test_exec_json_ok(tmp_path, layer):
    answer = tmp_path / "answer.py"
    answer.write_text("x = torch.ones(2, 3)\nprint(x.sum().item())\n")
    done = tutor("exec", str(answer), "--containment", layer, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "ok"
    assert data["stdout"] == "6.0\n"
    assert data["exception"] is None
    assert {"status", "stdout", "stderr", "exception", "duration_ms", "containment"} <= set(data)
    assert "rlimits" in data["containment"]


def test_exec_json_error_and_timeout_still_exit_zero(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("torch.ones(2) @ torch.ones(3)\n")
    data = json.loads(tutor("exec", str(bad), "--json").stdout)
    assert data["status"] == "error"
    assert data["exception"]["type"] == "RuntimeError"
    assert set(data["exception"]) == {"type", "message"}
    slow = tmp_path / "slow.py"
    slow.write_text("while True:\n    pass\n")
    done = tutor("exec", str(slow), "--timeout", "1", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["status"] == "timeout"


def test_exec_memory_option(tmp_path):
    big = tmp_path / "big.py"
    big.write_text("x = torch.ones(200_000_000)\n")
    data = json.loads(tutor("exec", str(big), "--memory-mb", "256", "--json").stdout)
    assert data["status"] == "memory"
    assert data["reason"] == "tried to use more than 256 MB"


def test_exec_human_output(tmp_path):
    answer = tmp_path / "a.py"
    answer.write_text("print('hello')\n")
    done = tutor("exec", str(answer))
    assert done.returncode == 0
    assert done.stdout == "hello\n"
    assert "[ok;" in done.stderr


def test_exec_unknown_runtime_is_a_usage_error(tmp_path):
    answer = tmp_path / "a.py"
    answer.write_text("print(1)\n")
    done = tutor("exec", str(answer), "--runtime", "nowhere-runtime", "--json")
    assert done.returncode == 2
    assert "nowhere-runtime" in json.loads(done.stdout)["error"]  # --json: errors are JSON too


def test_doctor_json(tutor_home):
    done = tutor("doctor", "--json")
    data = json.loads(done.stdout)
    assert done.returncode == (0 if data["ok"] else 1)
    report = data["runtimes"][0]
    assert report["runtime"] == "default"
    from tutor.sandbox.runtimes import built_python

    listed = [r["runtime"] for r in data["runtimes"]]
    assert listed == (["default", "xla"] if built_python("xla") else ["default"])
    assert report["torch"].startswith("2.")
    assert set(report["backends"]) == {"cpu", "cuda", "mps", "xla", "torchax", "inductor"}
    assert "rlimits" in report["containment"]["active"]
    names = {check["name"] for check in report["selftest"]}
    assert {"runs as non-root", "network is blocked", "fork storm is contained"} <= names
    assert all(isinstance(check["ok"], bool) for check in report["selftest"])


def test_doctor_human_lists_missing_layers_plainly():
    done = tutor("doctor", "--containment", "rlimits", "--no-selftest")
    assert "runtime default:" in done.stdout
    assert "MISSING  no bubblewrap" in done.stdout
    assert "backends: cpu yes" in done.stdout


def test_doctor_reports_a_runtime_that_cannot_start(tutor_home, tmp_path):
    fake = tmp_path / "fakepython"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    (tutor_home / "config.toml").write_text(f'[runtimes.broken]\npython = "{fake}"\n')
    done = tutor("doctor", "--json", "--no-selftest")
    data = json.loads(done.stdout)
    assert done.returncode == 1
    broken = [r for r in data["runtimes"] if r["runtime"] == "broken"][0]
    assert broken["ok"] is False and "did not start" in broken["error"]
    assert [r for r in data["runtimes"] if r["runtime"] == "default"][0]["ok"]
