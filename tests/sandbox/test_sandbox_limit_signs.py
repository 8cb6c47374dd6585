"""A run whose error shows a limit was crossed, by itself or by a program it started, says
which limit in its reason (the status stays `error`: it comes from the exit status). Real
runs, real rlimits, a real C++ compiler; both containment layers."""

from __future__ import annotations

import shutil
import textwrap

import pytest

pytestmark = pytest.mark.timeout(600)


def test_too_many_open_files_names_the_open_files_limit(sandbox):
    result = sandbox.run("files = [open(f'f{i}', 'w') for i in range(300)]\n", timeout=10)
    assert result.status == "error"
    assert result.reason.startswith("raised OSError: [Errno 24] Too many open files")
    assert result.reason.endswith(
        "— the run had more than 256 files open, the open-files limit "
        "(the 'compile' limits allow 1024 files)"
    )


def test_threads_past_the_process_limit_name_it(sandbox):
    code = textwrap.dedent(
        """
        import threading
        stop = threading.Event()
        for _ in range(200):
            threading.Thread(target=stop.wait, daemon=True).start()
        """
    )
    result = sandbox.run(code, timeout=10)
    assert result.status == "error"
    assert "can't start new thread" in result.reason
    assert "the run reached 64 processes and threads at once, the process limit" in result.reason


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_compiler_past_the_file_limit_names_the_program_and_the_limit(sandbox):
    """g++ writing a precompiled header larger than the run's file limit is stopped by
    SIGXFSZ; the run sees only g++'s message at the end of a long output, and names it."""
    code = textwrap.dedent(
        """
        import subprocess
        with open("all.h", "w") as fh:
            fh.write("".join(f"#include <{h}>\\n" for h in ["vector", "map", "string",
                     "iostream", "regex", "algorithm", "functional", "memory"]))
        done = subprocess.run(["g++", "-g", "-x", "c++-header", "all.h", "-o", "all.h.gch"],
                              capture_output=True, text=True)
        raise RuntimeError("C++ compile error\\n" + "noise\\n" * 2000 + done.stderr)
        """
    )
    result = sandbox.run(code, timeout=120, file_mb=1)
    assert result.status == "error"
    assert "File size limit exceeded" in result.exception.message  # the end, kept
    assert result.reason == (
        "raised RuntimeError: C++ compile error — cc1plus (a program the run started) wrote "
        "a file larger than 1 MB, the file-size limit (the 'compile' limits allow 1024 MB)"
    )
