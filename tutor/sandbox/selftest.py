"""Check that the containment really holds: each check runs hostile code in the sandbox and
looks at what happened, from both sides. Used by ``tutor doctor`` and the doctor screen, one
check at a time, so a screen can show each as it completes. Torch-free."""

from __future__ import annotations

import os
import socket
import textwrap
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from tutor.paths import PROJECT_ROOT
from tutor.sandbox.result import RunResult, Status


class Runner(Protocol):
    """``AsyncSandbox.run``: runs code as a drill answer runs."""

    def __call__(
        self, code: str, *, timeout: float = ..., memory_mb: int = ..., output_limit: int = ...
    ) -> Awaitable[RunResult]: ...


@dataclass
class Check:
    """One self-test line: what was checked, whether it held, and what was seen."""

    name: str
    ok: bool
    detail: str

    def to_json(self) -> dict[str, Any]:
        """The check as JSON data (``name``, ``ok``, ``detail``)."""
        return asdict(self)


#: what one check saw: whether the containment held, and the detail
Seen = tuple[bool, str]
#: one check: given the runner and whether the runtime is local, what it saw
Probe = Callable[[Runner, bool], Awaitable[Seen]]


def check_names(local: bool) -> list[str]:
    """The names of the checks, in the order they run; ``local``: the runtime is on this host
    (the checks of the host's files apply too)."""
    return [name for name, _probe, local_only in CHECKS if local or not local_only]


async def run_check(name: str, run: Runner, local: bool) -> Check:
    """Run the check ``name`` with ``run`` (an ``AsyncSandbox.run``)."""
    probe = next(probe for known, probe, _local_only in CHECKS if known == name)
    ok, detail = await probe(run, local)
    return Check(name, ok, detail)


def _code(text: str) -> str:
    return textwrap.dedent(text).strip() + "\n"


async def _non_root(run: Runner, local: bool) -> Seen:
    result = await run("import os\nprint(os.getuid(), os.geteuid())")
    if not result.ok:
        return (False, result.reason)
    uid, euid = (int(x) for x in result.stdout.split())
    ok = uid != 0 and euid != 0
    return (ok, f"uid {uid}" if ok else "learner code runs as root")


async def _timeout(run: Runner, local: bool) -> Seen:
    result = await run("while True:\n    pass", timeout=1.0)
    return (
        result.status is Status.timeout,
        result.reason or result.status.value,
    )


async def _memory(run: Runner, local: bool) -> Seen:
    result = await run("x = torch.empty(2**38)\nx.fill_(1)", memory_mb=512)
    return (
        result.status is Status.memory,
        result.reason or result.status.value,
    )


async def _memory_together(run: Runner, local: bool) -> Seen:
    code = _code("""
        import os, time
        for _ in range(4):
            if os.fork() == 0:
                block = bytearray(200 << 20)
                for i in range(0, len(block), 4096):
                    block[i] = 1
                time.sleep(60)
                os._exit(0)
        time.sleep(60)
    """)
    result = await run(code, memory_mb=512, timeout=20)
    held = result.status is Status.memory and "together" in result.reason
    return (held, result.reason or result.status.value)


async def _output(run: Runner, local: bool) -> Seen:
    result = await run("while True:\n    print('x' * 100)", output_limit=4096, timeout=5)
    return (
        result.status is Status.output_limit,
        result.reason or result.status.value,
    )


async def _fork_storm(run: Runner, local: bool) -> Seen:
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
    result = await run(code, timeout=10)
    if not result.ok:
        return (False, result.reason)
    made = int(result.stdout or 0)
    return (made < 1000, f"stopped after {made} processes")


async def _network(run: Runner, local: bool) -> Seen:
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
        result = await run(code, timeout=5)
    finally:
        listener.close()
    reached = [line for line in result.stdout.splitlines() if line.startswith("reached")]
    if not result.ok:
        return (False, result.reason)
    if reached:
        return (False, "learner code " + "; ".join(reached))
    return (True, "loopback and internet connections refused")


async def _environment(run: Runner, local: bool) -> Seen:
    result = await run("import os\nprint('\\n'.join(f'{k}={v}' for k, v in os.environ.items()))")
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
    return (ok, detail)


async def _unowned_memory(run: Runner, local: bool) -> Seen:
    code = _code("""
        import ctypes, os
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        made = []
        if libc.shmget(0, 1 << 20, 0o1600) >= 0:
            made.append("SysV shared memory")
        if libc.msgget(0, 0o1600) >= 0:
            made.append("a SysV message queue")
        try:
            os.close(os.memfd_create("selftest"))
            made.append("a memfd")
        except OSError:
            pass
        print("; ".join(made))
    """)
    result = await run(code)
    if not result.ok:
        return (False, result.reason)
    made = result.stdout.strip()
    detail = "SysV IPC and memfd refused" if not made else f"learner code could make {made}"
    return (not made, detail)


async def _user_namespace(run: Runner, local: bool) -> Seen:
    code = "import ctypes\nprint(ctypes.CDLL('libc.so.6').unshare(0x10000000))"
    result = await run(code)
    ok = result.ok and result.stdout.strip() == "-1"
    detail = "unshare(CLONE_NEWUSER) refused" if ok else "learner code can become uid 0 in one"
    return (ok, detail if result.ok else result.reason)


async def _home(run: Runner, local: bool) -> Seen:
    home = os.path.expanduser("~")
    target = os.path.join(home, f".tutor-selftest-{uuid.uuid4().hex}")
    result = await run(f"open({target!r}, 'w').write('x')")
    wrote = os.path.exists(target)
    if wrote:
        os.unlink(target)
    ok = not wrote and result.status is Status.error
    return (
        ok,
        "write refused" if ok else f"learner code could write to {home}",
    )


async def _outside_scratch(run: Runner, local: bool) -> Seen:
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
    result = await run(code)
    left = [p for p in (stray, project) if os.path.exists(p)]
    for path in left:
        os.unlink(path)
    ok = result.ok and not left
    detail = "nothing left outside the scratch dir" if ok else f"left behind: {', '.join(left)}"
    return (ok, detail)


#: every check: (name, probe, whether it only applies to a runtime on this host)
CHECKS: list[tuple[str, Probe, bool]] = [
    ("runs as non-root", _non_root, False),
    ("timeout stops an infinite loop", _timeout, False),
    ("memory limit stops a huge allocation", _memory, False),
    ("memory limit holds for a run's processes together", _memory_together, False),
    ("output is capped", _output, False),
    ("fork storm is contained", _fork_storm, False),
    ("network is blocked", _network, False),
    ("your environment is hidden", _environment, False),
    ("memory outside the limit is refused", _unowned_memory, False),
    ("no new user namespaces", _user_namespace, False),
    ("home directory is not writable", _home, True),
    ("cannot leave files outside scratch", _outside_scratch, True),
]
