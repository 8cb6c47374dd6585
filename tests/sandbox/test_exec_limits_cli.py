"""`tutor exec --limits NAME`, error text cut at its start (the cause is at the end), and a
run that crosses a limit inside a program it started names the limit. Real `tutor` processes,
a real sandbox, real programs hitting real rlimits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(900)

#: a program the run starts writes 80 MB: past the default file limit (64 MB), within compile's
DD = """
import subprocess
subprocess.run(["dd", "if=/dev/zero", "of=big", "bs=1M", "count=80"], check=True,
               capture_output=True)
print("wrote 80 MB")
"""

COMPILE = """
def f(x):
    return torch.sin(x) * 2 + x.cos()

x = torch.linspace(0, 1, 8)
print(torch.allclose(torch.compile(f)(x), f(x)))
"""


def tutor(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=850,
    )


def exec_json(path: Path, *args: str) -> dict:
    done = tutor("exec", str(path), "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_program_past_the_file_limit_names_the_limit_and_compile_limits_allow_it(tmp_path):
    answer = tmp_path / "dd.py"
    answer.write_text(DD)
    tight = exec_json(answer)
    assert tight["status"] == "error"
    assert tight["exception"]["type"] == "CalledProcessError"
    assert "dd (a program the run started) wrote a file larger than 64 MB" in tight["reason"]
    assert "the 'compile' limits allow 1024 MB" in tight["reason"]
    raised = exec_json(answer, "--limits", "compile")
    assert raised["status"] == "ok", raised
    assert raised["stdout"] == "wrote 80 MB\n"


def test_a_long_error_keeps_its_end(tmp_path):
    answer = tmp_path / "long.py"
    answer.write_text('raise RuntimeError("summary\\n" + "noise " * 3000 + "\\nthe cause")\n')
    data = exec_json(answer)
    message = data["exception"]["message"]
    assert message.endswith("the cause")  # the end is kept, where a compiler puts the cause
    assert message.startswith("summary\n…")  # with the first line, and a mark for the cut
    assert len(message) <= 4000
    assert data["traceback"].endswith("the cause")
    human = tutor("exec", str(answer))
    assert "the cause" in human.stderr


def test_limits_names_are_checked(tmp_path):
    answer = tmp_path / "a.py"
    answer.write_text("print(1)\n")
    done = tutor("exec", str(answer), "--limits", "fast")
    assert done.returncode == 2
    assert "'fast' is not one of 'default', 'compile'" in done.stderr


def test_inductor_past_the_file_limit_says_so(tmp_path):
    """Inductor builds C++ kernels with a precompiled header of tens of MB. Where the header is
    larger than the default file limit (AVX-512 builds of torch), the run fails and says which
    limit, though the compiler, not the run, crossed it; and gcc's last lines, where it says
    so, are kept. (The compile limits let it finish: tests/sandbox/test_sandbox_compile.py.)"""
    answer = tmp_path / "compile.py"
    answer.write_text(COMPILE)
    tight = exec_json(answer, "--timeout", "170")
    if tight["status"] == "ok":
        pytest.skip("this torch's precompiled header fits the default file limit")
    assert tight["status"] == "error"
    assert tight["exception"]["type"] == "InductorError"
    assert "cc1plus (a program the run started) wrote a file larger than 64 MB" in tight["reason"]
    assert "File size limit exceeded" in tight["exception"]["message"]
