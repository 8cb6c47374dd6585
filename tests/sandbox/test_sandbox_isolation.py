"""What learner code can see: none of the user's environment, no supervisor secrets in /proc,
and (where the layers allow) no home directory and no network. The UI side never imports torch."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tutor.sandbox import Sandbox, Status

pytestmark = pytest.mark.timeout(120)

SECRET = "tutor-secret-value-8f3b2c"


@pytest.mark.parametrize("layer", ["rlimits", "bwrap"])
def test_user_environment_never_reaches_learner_code(layer, monkeypatch):
    from tutor.sandbox.containment import bwrap_works

    if layer == "bwrap" and not bwrap_works():
        pytest.skip("bubblewrap is not usable here")
    monkeypatch.setenv("TUTOR_TEST_SECRET", SECRET)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    code = textwrap.dedent(
        """
        import os
        print(dict(os.environ))
        for pid in ['self', str(os.getppid()), '1'] + os.listdir('/proc'):
            try:
                with open(f'/proc/{pid}/environ', 'rb') as fh:
                    print(pid, fh.read().replace(b'\\0', b' ').decode(errors='replace'))
            except OSError:
                pass
        """
    )
    with Sandbox(containment=layer) as box:
        result = box.run(code, timeout=10)
    assert result.ok, result
    assert SECRET not in result.stdout + result.stderr
    assert "TUTOR_TEST_SECRET" not in result.stdout
    assert "TUTOR_HOME" not in result.stdout


def test_home_is_invisible_or_unwritable(sandbox):
    from tutor.sandbox.containment import python_paths
    from tutor.sandbox.supervisor import PROJECT_ROOT

    home = os.path.expanduser("~")
    code = textwrap.dedent(
        f"""
        import os
        try:
            print(sorted(os.listdir({home!r})))
        except OSError as e:
            print(type(e).__name__)
        try:
            open(os.path.join({home!r}, 'planted'), 'w')
        except OSError as e:
            print(type(e).__name__)
        """
    )
    result = sandbox.run(code)
    assert result.ok
    listing, write = result.stdout.splitlines()
    assert write in ("PermissionError", "FileNotFoundError", "OSError")
    assert not os.path.exists(os.path.join(home, "planted"))
    if "bwrap" in result.containment:
        # only what leads to the Python install is there (e.g. ~/.pyenv), nothing else of home
        needed = {
            os.path.relpath(p, home).split(os.sep)[0]
            for p in python_paths(PROJECT_ROOT)
            if p.startswith(home + os.sep)
        }
        shown = set() if listing in ("FileNotFoundError", "PermissionError") else set(eval(listing))
        assert shown <= needed
    elif os.geteuid() == 0:
        assert listing == "PermissionError"


def test_network_is_blocked_where_a_layer_blocks_it(sandbox):
    code = "import socket\ns = socket.socket()\ns.settimeout(2)\ns.connect(('1.1.1.1', 53))"
    result = sandbox.run(code, timeout=5)
    if "bwrap" in result.containment or "netns" in result.containment:
        assert result.status is Status.error
        assert result.exception.type in ("OSError", "ConnectionRefusedError", "TimeoutError")


def test_other_processes_are_invisible_in_bwrap(sandbox):
    result = sandbox.run("import os\nprint(len([p for p in os.listdir('/proc') if p.isdigit()]))")
    assert result.ok
    if "bwrap" in result.containment:
        assert int(result.stdout) <= 4  # bwrap's init, the zygote, this run


def test_supervisor_side_never_imports_torch(tmp_path):
    code = textwrap.dedent(
        """
        import sys
        import tutor.sandbox
        from tutor.sandbox import Sandbox, AsyncSandbox, RunResult
        from tutor.sandbox.runtimes import resolve_runtime
        assert 'torch' not in sys.modules, 'import'
        with Sandbox() as box:
            r = box.run('print(torch.__version__)')
            assert r.ok, r
            c = box.call('tutor.probes.backends:report', import_xla=False)
            assert c.ok, c
        assert 'torch' not in sys.modules, 'after runs'
        print('clean')
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=100, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "clean"
