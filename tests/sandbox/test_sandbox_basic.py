"""The everyday path: code runs with real torch, prints arrive, exceptions become verdicts."""

from __future__ import annotations

import pytest

from tutor.sandbox import Status


def test_prints_torch_result(sandbox):
    result = sandbox.run(
        "x = torch.arange(6).reshape(2, 3)\nprint(x.stride(), x.T.is_contiguous())"
    )
    assert result.status is Status.ok, result
    assert result.stdout == "(3, 1) False\n"
    assert result.exception is None
    assert "rlimits" in result.containment


def test_nn_and_functional_are_preimported(sandbox):
    result = sandbox.run(
        "print(F.relu(torch.tensor([-1.0, 2.0])).tolist(), nn.Linear(2, 3).weight.shape)"
    )
    assert result.ok, result
    assert result.stdout == "[0.0, 2.0] torch.Size([3, 2])\n"


def test_exception_is_learner_frames_only(sandbox):
    result = sandbox.run("a = torch.ones(2, 3)\nb = torch.ones(4, 5)\nc = a @ b\n")
    assert result.status is Status.error
    assert result.exception.type == "RuntimeError"
    assert "cannot be multiplied" in result.exception.message
    assert 'File "<answer>", line 3' in result.exception.traceback
    assert "agent.py" not in result.exception.traceback
    assert result.reason.startswith("raised RuntimeError")


def test_syntax_error(sandbox):
    result = sandbox.run("def f(:\n  pass")
    assert result.status is Status.error
    assert result.exception.type == "SyntaxError"


def test_fresh_globals_each_run(sandbox):
    assert sandbox.run("leak = 41").ok
    result = sandbox.run("print(leak)")
    assert result.status is Status.error
    assert result.exception.type == "NameError"


def test_stderr_is_captured(sandbox):
    result = sandbox.run("import sys\nprint('warn', file=sys.stderr)\nprint('out')")
    assert result.ok
    assert result.stdout == "out\n"
    assert result.stderr == "warn\n"


@pytest.mark.parametrize("code", ["import sys\nsys.exit(0)", "raise SystemExit"])
def test_clean_system_exit_is_ok(sandbox, code):
    assert sandbox.run(code).status is Status.ok


def test_system_exit_with_status_is_error(sandbox):
    result = sandbox.run("print('bye')\nraise SystemExit(2)")
    assert result.status is Status.error
    assert result.reason == "exited with status 2"
    assert result.stdout == "bye\n"


def test_os_exit_keeps_output(sandbox):
    result = sandbox.run("import os\nprint('before')\nos._exit(3)")
    assert result.status is Status.error
    assert result.reason == "exited with status 3"
    assert result.stdout == "before\n"


def test_random_state_is_like_a_fresh_process(sandbox):
    import subprocess
    import sys

    seeded = "torch.manual_seed(0)\nimport random\nrandom.seed(1)\nprint(torch.randn(3).tolist(), random.random())"
    real = subprocess.run(
        [sys.executable, "-c", "import torch\n" + seeded],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert sandbox.run(seeded).stdout == real.stdout
    unseeded = "import random\nprint(random.random())"
    assert sandbox.run(unseeded).stdout != sandbox.run(unseeded).stdout


def test_unseeded_torch_behaves_like_fresh_processes(sandbox):
    import subprocess
    import sys

    code = "print(torch.randn(3).tolist())"
    fresh = [
        subprocess.run(
            [sys.executable, "-c", "import torch\n" + code],
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
        for _ in range(2)
    ]
    runs = [sandbox.run(code).stdout for _ in range(2)]
    assert (fresh[0] == fresh[1]) == (runs[0] == runs[1])
