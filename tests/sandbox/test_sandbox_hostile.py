"""What a careless or hostile program does, and the plain verdict it gets. After each run
nothing it started is left (no process, no file outside its scratch dir, no connection)."""

from __future__ import annotations

import os
import socket
import textwrap
import uuid

import pytest

from tutor.sandbox import Status

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(autouse=True)
def _checker(leftovers):
    global _leftovers
    _leftovers = leftovers


def run(box, code: str, **kw):
    """Run ``code`` and check that no process of it is left afterwards."""
    result = box.run(textwrap.dedent(code), **kw)
    assert _leftovers(box) == [], f"left processes behind after {result}"
    return result


def test_infinite_loop(sandbox):
    result = run(sandbox, "while True:\n    pass\n", timeout=1.0)
    assert result.status is Status.timeout
    assert result.reason.startswith("timed out after 1.0 s")


def test_sleep(sandbox):
    result = run(sandbox, "import time\nprint('start')\ntime.sleep(30)", timeout=1.0)
    assert result.status is Status.timeout
    assert result.reason == "timed out after 1.0 s (wall clock)"
    assert result.stdout == "start\n"


def test_ignoring_sigterm_and_sigxcpu(sandbox):
    code = """
        import signal
        for sig in (signal.SIGTERM, signal.SIGXCPU, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        while True:
            pass
    """
    result = run(sandbox, code, timeout=1.5)
    assert result.status is Status.timeout


def test_cpu_limit_gives_a_cpu_timeout(sandbox):
    # the run lowers its own soft CPU limit, so SIGXCPU comes long before the wall clock
    code = """
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        resource.setrlimit(resource.RLIMIT_CPU, (1, hard))
        while True:
            pass
    """
    result = run(sandbox, code, timeout=30.0)
    assert result.status is Status.timeout
    assert result.reason == "timed out after 30.0 s of CPU"


def test_huge_torch_allocation(sandbox):
    result = run(sandbox, "x = torch.empty(2**40)\nprint('allocated')")
    assert result.status is Status.memory
    assert result.reason == "tried to use more than 1024 MB"
    assert result.stdout == ""


def test_torch_allocation_just_over_the_limit(sandbox):
    result = run(sandbox, "x = torch.ones(400_000_000)\nprint(x.sum())", memory_mb=512)
    assert result.status is Status.memory
    assert result.reason == "tried to use more than 512 MB"


def test_huge_python_allocation(sandbox):
    result = run(sandbox, "x = bytearray(8 * 1024**3)")
    assert result.status is Status.memory
    assert result.exception.type == "MemoryError"


def test_growing_python_allocation(sandbox):
    result = run(sandbox, "keep = []\nwhile True:\n    keep.append(bytearray(10**7))", timeout=10)
    assert result.status is Status.memory


def test_stdout_flood(sandbox):
    result = run(sandbox, "while True:\n    print('x' * 1000)", timeout=10)
    assert result.status is Status.output_limit
    assert result.reason == "printed more than 64 KiB to stdout"
    assert 60_000 < len(result.stdout) <= 65536


def test_stderr_flood(sandbox):
    code = "import sys\nwhile True:\n    sys.stderr.write('e' * 4096)"
    result = run(sandbox, code, timeout=10, output_limit=10_000)
    assert result.status is Status.output_limit
    assert result.reason == "printed more than 10000 bytes to stderr"
    assert len(result.stderr) == 10_000


def test_one_big_print_just_over(sandbox):
    result = run(sandbox, "print('y' * 65536)")  # 65537 bytes with the newline
    assert result.status is Status.output_limit


def test_bounded_fork_storm(sandbox):
    code = """
        import os, time
        made = 0
        for _ in range(1000):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            made += 1
        print(made)
    """
    result = run(sandbox, code, timeout=20)
    assert result.status is Status.ok, result
    assert 0 < int(result.stdout) < 1000


def test_fork_bomb(sandbox):
    code = """
        import os
        while True:
            try:
                os.fork()
            except OSError:
                pass
    """
    result = run(sandbox, code, timeout=2)
    assert result.status is Status.timeout


def test_setsid_grandchild_is_killed(sandbox):
    code = """
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(60)
            os._exit(0)
        time.sleep(0.2)
        print('parent done')
    """
    result = run(sandbox, code, timeout=5)
    assert result.status is Status.ok
    assert result.stdout == "parent done\n"


def test_background_child_holding_stdout_does_not_hang(sandbox):
    code = """
        import os, sys, time
        if os.fork() == 0:
            os.setsid()
            while True:
                print('still here', flush=True)
                time.sleep(0.01)
        print('main exits')
    """
    result = run(sandbox, code, timeout=5)
    assert result.status is Status.ok
    assert "main exits" in result.stdout


def test_subprocess_sleep_is_killed(sandbox):
    code = (
        "import subprocess\nsubprocess.Popen(['sleep', '60'], start_new_session=True)\nprint('ok')"
    )
    result = run(sandbox, code)
    assert result.status is Status.ok


def test_write_outside_scratch_home(sandbox):
    home = os.path.expanduser("~")
    target = os.path.join(home, f"tutor-pwned-{uuid.uuid4().hex}")
    result = run(sandbox, f"open({target!r}, 'w').write('x')")
    assert result.status is Status.error
    assert result.exception.type in ("PermissionError", "FileNotFoundError", "OSError")
    assert not os.path.exists(target)


def test_write_into_project_is_refused(sandbox):
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"pwn-{uuid.uuid4().hex}.py")
    result = run(sandbox, f"open({target!r}, 'w').write('x')")
    assert result.status is Status.error
    assert not os.path.exists(target)


@pytest.mark.parametrize("shared", ["/tmp", "/dev/shm", "/var/tmp"])
def test_files_in_shared_dirs_do_not_survive(sandbox, shared):
    if not os.path.isdir(shared):
        pytest.skip(f"no {shared} here")
    name = os.path.join(shared, f"tutor-left-{uuid.uuid4().hex}")
    code = f"""
        import os
        with open({name!r}, 'w') as fh:
            fh.write('left behind')
        os.makedirs({name!r} + '.d/sub', exist_ok=True)
        print('wrote')
    """
    result = run(sandbox, code)
    assert not os.path.exists(name)  # bwrap: it went to a private /tmp; rlimits: swept
    assert not os.path.exists(name + ".d")
    if (sandbox.ready or {}).get("uid") is not None or "bwrap" in result.containment:
        seen = run(sandbox, f"import os\nprint(os.path.exists({name!r}))")
        assert seen.stdout == "False\n"  # not even inside the runtime for the next run


def test_scratch_dir_is_fresh_and_removed(sandbox):
    first = run(sandbox, "import os\nopen('mine.txt', 'w').write('1')\nprint(os.getcwd())")
    assert first.ok
    second = run(sandbox, "import os\nprint(os.getcwd(), os.listdir('.'))")
    assert second.ok
    cwd, listing = second.stdout.split(" ", 1)
    assert cwd != first.stdout.strip()
    assert listing.strip() == "[]"
    if "bwrap" not in first.containment:
        assert not os.path.exists(first.stdout.strip())


def test_multi_gb_file_write(sandbox):
    code = """
        chunk = b'\\0' * (1 << 20)
        with open('big.bin', 'wb') as fh:
            for _ in range(3 * 1024):
                fh.write(chunk)
    """
    result = run(sandbox, code, timeout=20)
    assert result.status is Status.output_limit
    assert result.reason == "wrote a file larger than 64 MB"


def test_multi_gb_file_write_ignoring_sigxfsz(sandbox):
    code = """
        import signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        chunk = b'\\0' * (1 << 20)
        with open('big.bin', 'wb') as fh:
            for _ in range(3 * 1024):
                fh.write(chunk)
    """
    result = run(sandbox, code, timeout=20)
    assert result.status is Status.output_limit
    assert result.reason == "wrote a file larger than 64 MB"


def test_tcp_connect_to_loopback_listener(sandbox):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(3)
    port = listener.getsockname()[1]
    code = f"""
        import socket, time
        s = socket.create_connection(('127.0.0.1', {port}), timeout=2)
        s.sendall(b'hello')
        print('connected')
        time.sleep(30)
    """
    try:
        result = run(sandbox, code, timeout=2)
        isolated = "bwrap" in result.containment or "netns" in result.containment
        if isolated:
            assert result.status is Status.error
            assert result.exception.type in ("ConnectionRefusedError", "OSError")
            listener.settimeout(0.5)
            with pytest.raises(TimeoutError):
                listener.accept()
        else:  # no network isolation: the connection happens, but is closed with the run
            conn, _ = listener.accept()
            conn.settimeout(3)
            assert conn.recv(5) == b"hello"
            assert conn.recv(5) == b""
            conn.close()
    finally:
        listener.close()


def test_segfault_via_ctypes(sandbox):
    result = run(sandbox, "import ctypes\nctypes.string_at(0)")
    assert result.status is Status.crashed
    assert result.reason == "crashed with SIGSEGV"


def test_abort(sandbox):
    result = run(sandbox, "import os\nos.abort()")
    assert result.status is Status.crashed
    assert result.reason == "crashed with SIGABRT"


def test_runaway_recursion(sandbox):
    result = run(sandbox, "def f(n):\n    return f(n + 1)\nf(0)")
    assert result.status is Status.error
    assert result.exception.type == "RecursionError"


def test_runaway_recursion_past_the_c_stack(sandbox):
    code = """
        import sys
        sys.setrecursionlimit(10**8)
        x = []
        for _ in range(300_000):
            x = [x]
        print(repr(x)[:5])
    """
    result = run(sandbox, code, timeout=20)
    assert result.status is Status.crashed
    assert result.reason == "crashed with SIGSEGV"


def test_reading_stdin(sandbox):
    result = run(sandbox, "print(repr(input('name? ')))")
    assert result.status is Status.error
    assert result.exception.type == "EOFError"
    raw = run(sandbox, "import os, sys\nprint(repr(sys.stdin.read()), repr(os.read(0, 10)))")
    assert raw.stdout == "'' b''\n"


def test_non_utf8_and_escape_sequences(sandbox):
    code = r"""
        import sys
        sys.stdout.buffer.write(b'bad \xff\xfe bytes\n')
        sys.stdout.write('\x1b[2J\x1b[31mred\x1b[0m \x1b]0;title\x07done\r\n')
        sys.stdout.write('\x07bell \x08back \x9b31m c1\n')
        sys.stderr.buffer.write(b'\x1b[?1049h\x1bcreset\xc3')
    """
    result = run(sandbox, code)
    assert result.ok
    assert "\x1b" not in result.stdout + result.stderr
    assert "\x07" not in result.stdout and "\x08" not in result.stdout
    assert "\x9b" not in result.stdout
    assert result.stdout.splitlines() == ["bad \ufffd\ufffd bytes", "red done", "bell back  c1"]
    assert result.stderr == "reset\ufffd"


def test_set_num_threads_64_then_matmul(sandbox):
    code = """
        import os
        torch.set_num_threads(64)
        a = torch.randn(512, 512)
        for _ in range(5):
            b = a @ a
        print(float(b.sum()) == float(b.sum()), len(os.listdir('/proc/self/task')))
    """
    result = run(sandbox, code, timeout=20)
    assert result.ok, result
    same, threads = result.stdout.split()
    assert same == "True"
    assert int(threads) <= 8


def test_kill_runtime_from_inside(sandbox):
    code = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(2)"
    result = run(sandbox, code, timeout=5)
    assert result.status in (Status.error, Status.crashed), result
    assert result.reason
    after = run(sandbox, "print(torch.ones(2).sum().item())")
    assert after.ok and after.stdout == "2.0\n"


def test_kill_all_signalable_processes(sandbox):
    if (sandbox.ready or {}).get("uid") is None:
        pytest.skip("without a dedicated uid kill(-1) would hit the user's own processes")
    result = run(sandbox, "import os, signal\nos.kill(-1, signal.SIGKILL)\nprint('survived')")
    assert result.status in (Status.ok, Status.crashed, Status.error)
    assert run(sandbox, "print('next')").stdout == "next\n"


def test_runs_as_non_root(sandbox):
    result = run(sandbox, "import os\nprint(os.getuid(), os.geteuid(), os.getgid())")
    uid, euid, gid = map(int, result.stdout.split())
    if os.geteuid() == 0:
        assert uid != 0 and euid != 0 and gid != 0
        assert "uid" in result.containment
    else:
        assert "bwrap" in result.containment or uid == os.getuid()


def test_cannot_regain_root(sandbox):
    if os.geteuid() != 0:
        pytest.skip("only meaningful when the tests run as root")
    result = run(sandbox, "import os\nos.setuid(0)")
    assert result.status is Status.error
    assert result.exception.type == "PermissionError"


def test_closing_result_pipe_is_not_a_crash_of_the_sandbox(sandbox):
    result = run(sandbox, "import os\nos.close(3)\nprint('hi')")
    assert result.status in (Status.ok, Status.error)
    assert result.stdout == "hi\n"
    assert run(sandbox, "print(1)").ok


def test_exception_whose_str_raises(sandbox):
    code = """
        class Nasty(Exception):
            def __str__(self):
                raise RuntimeError('no message for you')
        raise Nasty()
    """
    result = run(sandbox, code)
    assert result.status is Status.error
    assert result.exception.type == "Nasty"
    assert run(sandbox, "print('fine')").stdout == "fine\n"


def test_replacing_os_exit_does_not_escape_the_child(sandbox):
    code = "import os\nos._exit = lambda code: None\nprint('patched')"
    result = run(sandbox, code)
    assert result.status is Status.ok
    assert run(sandbox, "print('next')").stdout == "next\n"


def test_deep_directory_tree_in_scratch_is_removed(sandbox):
    code = """
        import os
        top = os.getcwd()
        for _ in range(3000):
            os.mkdir('d')
            os.chdir('d')
        os.chdir(top)
        print(top)
    """
    result = run(sandbox, code, timeout=30)
    assert result.ok, result
    if "bwrap" not in result.containment:
        assert not os.path.exists(result.stdout.strip())
    assert run(sandbox, "print('next')").stdout == "next\n"


def test_unwritable_and_unreadable_leftovers_are_removed(sandbox):
    code = """
        import os
        os.makedirs('locked/inner')
        open('locked/inner/f', 'w').write('x')
        os.chmod('locked/inner', 0)
        os.chmod('locked', 0)
        print(os.getcwd())
    """
    result = run(sandbox, code)
    assert result.ok
    if "bwrap" not in result.containment:
        assert not os.path.exists(result.stdout.strip())


def test_escape_sequences_in_exceptions_are_stripped(sandbox):
    code = """
        Evil = type('Evil\\x1b[2J', (Exception,), {})
        raise Evil('\\x1b]0;pwned\\x07message \\x1b[31mred')
    """
    result = run(sandbox, code)
    assert result.status is Status.error
    shown = result.reason + result.exception.type + result.exception.message
    shown += result.exception.traceback
    assert "\x1b" not in shown and "\x07" not in shown
    assert result.exception.type == "Evil"
    assert result.exception.message == "message red"


def test_learner_code_holds_no_capabilities(sandbox):
    code = """
        for line in open('/proc/self/status'):
            if line.startswith(('CapInh', 'CapPrm', 'CapEff', 'CapAmb', 'NoNewPrivs')):
                print(line.split()[0], line.split()[1])
    """
    result = run(sandbox, code)
    assert result.ok, result
    fields = dict(line.split() for line in result.stdout.splitlines())
    for name in ("CapInh:", "CapPrm:", "CapEff:", "CapAmb:"):
        assert int(fields[name], 16) == 0, fields
    assert fields["NoNewPrivs:"] == "1"
