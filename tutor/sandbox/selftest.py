"""Check that the containment really holds: each check runs hostile code in the sandbox and
looks at what happened, from both sides. Used by ``tutor doctor``. Torch-free."""

from __future__ import annotations

import os
import socket
import textwrap
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass

from tutor.sandbox.result import RunResult, Status


@dataclass
class Check:
    """One self-test line: what was checked, whether it held, and what was seen."""

    name: str
    ok: bool
    detail: str

    def to_json(self) -> dict:
        return asdict(self)


def run_checks(run: Callable[..., RunResult], local: bool) -> list[Check]:
    """Run every check with ``run`` (a ``Sandbox.run``); ``local``: the runtime is on this host."""
    checks = [_non_root(run), _timeout(run), _memory(run), _output(run), _fork_storm(run)]
    checks += [_network(run, local), _environment(run)]
    if local:
        checks += [_home(run), _outside_scratch(run)]
    return checks


def _code(text: str) -> str:
    return textwrap.dedent(text).strip() + "\n"


def _non_root(run) -> Check:
    result = run("import os\nprint(os.getuid(), os.geteuid())")
    if not result.ok:
        return Check("runs as non-root", False, result.reason)
    uid, euid = (int(x) for x in result.stdout.split())
    ok = uid != 0 and euid != 0
    return Check("runs as non-root", ok, f"uid {uid}" if ok else "learner code runs as root")


def _timeout(run) -> Check:
    result = run("while True:\n    pass", timeout=1.0)
    return Check(
        "timeout stops an infinite loop",
        result.status is Status.timeout,
        result.reason or result.status.value,
    )


def _memory(run) -> Check:
    result = run("x = torch.empty(2**38)\nx.fill_(1)", memory_mb=512)
    return Check(
        "memory limit stops a huge allocation",
        result.status is Status.memory,
        result.reason or result.status.value,
    )


def _output(run) -> Check:
    result = run("while True:\n    print('x' * 100)", output_limit=4096, timeout=5)
    return Check(
        "output is capped",
        result.status is Status.output_limit,
        result.reason or result.status.value,
    )


def _fork_storm(run) -> Check:
    code = _code("""
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
    """)
    result = run(code, timeout=10)
    if not result.ok:
        return Check("fork storm is contained", False, result.reason)
    made = int(result.stdout or 0)
    return Check("fork storm is contained", made < 1000, f"stopped after {made} processes")


def _network(run, local: bool) -> Check:
    listener = socket.socket()
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        code = _code(f"""
            import socket
            for host, port in (('127.0.0.1', {port}), ('1.1.1.1', 53)):
                try:
                    socket.create_connection((host, port), timeout=1).close()
                    print('reached', host)
                except OSError as exc:
                    print('blocked', host, type(exc).__name__)
        """)
        result = run(code, timeout=5)
    finally:
        listener.close()
    reached = [line for line in result.stdout.splitlines() if line.startswith("reached")]
    if not result.ok:
        return Check("network is blocked", False, result.reason)
    if reached:
        return Check("network is blocked", False, "learner code " + "; ".join(reached))
    return Check("network is blocked", True, "loopback and internet connections refused")


def _environment(run) -> Check:
    result = run("import os\nprint('\\n'.join(f'{k}={v}' for k, v in os.environ.items()))")
    seen = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    leaked = [
        k
        for k, v in os.environ.items()
        if seen.get(k) == v
        and len(v) >= 6
        and k not in ("PATH", "LANG", "LC_ALL", "PYTHONIOENCODING")
    ]
    ok = result.ok and not leaked
    detail = (
        f"only {', '.join(sorted(seen))}" if ok else f"leaked: {', '.join(leaked) or result.reason}"
    )
    return Check("your environment is hidden", ok, detail)


def _home(run) -> Check:
    home = os.path.expanduser("~")
    target = os.path.join(home, f".tutor-selftest-{uuid.uuid4().hex}")
    result = run(f"open({target!r}, 'w').write('x')")
    wrote = os.path.exists(target)
    if wrote:
        os.unlink(target)
    ok = not wrote and result.status is Status.error
    return Check(
        "home directory is not writable",
        ok,
        "write refused" if ok else f"learner code could write to {home}",
    )


def _outside_scratch(run) -> Check:
    from tutor.sandbox.supervisor import PROJECT_ROOT

    stray = os.path.join("/tmp", f"tutor-selftest-{uuid.uuid4().hex}")
    project = os.path.join(PROJECT_ROOT, f".tutor-selftest-{uuid.uuid4().hex}")
    code = _code(f"""
        for path in ({stray!r}, {project!r}):
            try:
                open(path, 'w').write('x')
                print('wrote', path)
            except OSError as exc:
                print('refused', path, type(exc).__name__)
    """)
    result = run(code)
    left = [p for p in (stray, project) if os.path.exists(p)]
    for path in left:
        os.unlink(path)
    ok = result.ok and not left
    detail = "nothing left outside the scratch dir" if ok else f"left behind: {', '.join(left)}"
    return Check("cannot leave files outside scratch", ok, detail)
