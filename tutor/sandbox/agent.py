"""The forked child of the zygote: prepare the process, run the learner's code (or a probe),
report the outcome on the result pipe, and ``os._exit``.

Runtime side only: imports torch. Nothing here returns to the zygote's loop.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import importlib
import io
import json
import linecache
import os
import re
import signal
import sys
import time
import traceback
import types
from collections.abc import Callable
from typing import NoReturn

import torch

from tutor.safe_text import keep_tail
from tutor.sandbox import memcg, mpmain, syscalls
from tutor.sandbox.containment import RUN_KEEPS
from tutor.sandbox.limits import Limits, apply_rlimits
from tutor.sandbox.protocol import JsonObject
from tutor.sandbox.reaper import (
    PR_SET_DUMPABLE,
    PR_SET_NO_NEW_PRIVS,
    PR_SET_PDEATHSIG,
    libc,
    prctl,
)

#: the file name learner code is compiled under; traceback frames are filtered on it
ANSWER = "<answer>"
TARGET = re.compile(
    r"^tutor\.probes\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$"
)
#: what torch (CPU, CUDA, XLA) says when an allocation fails
MEMORY_SIGNS = (
    "can't allocate memory",
    "not enough memory",
    "Cannot allocate memory",
    "bad_alloc",
    "out of memory",
    "RESOURCE_EXHAUSTED",
)
#: characters of an exception's message and traceback reported (their ends: the cause of a
#: compiler's failure is in its last lines)
MESSAGE_LIMIT = 4000
TRACEBACK_LIMIT = 8000
#: whether each run reseeds torch's default generator (set by the zygote at start-up)
RESEED_TORCH = False
#: exit codes that carry a run's outcome to the zygote. The status of a run comes from its
#: exit status (``tutor.sandbox.ending``), never from the report on the result pipe, which
#: learner code shares the process with and so could write itself; the report adds details.
SETUP_FAILED = 111
RESULT_LOST = 112
RAISED = 113
OUT_OF_MEMORY = 114
FILE_TOO_LARGE = 115
#: the exit code of each kind of failed run
FAILED = {"error": RAISED, "memory": OUT_OF_MEMORY, "file": FILE_TOO_LARGE}

#: a companion: given the probe's kwargs, the function the learner's process runs
Companion = Callable[[JsonObject], Callable[[], object]]


class Job:
    """What the zygote hands to the child: the request, its pipes and how to drop privileges."""

    def __init__(
        self,
        request: JsonObject,
        out_fd: int,
        err_fd: int,
        res_fd: int,
        scratch: str,
        base_vm: int,
        uid: int | None,
        nproc: int | None,
    ) -> None:
        self.request = request
        self.out_fd, self.err_fd, self.res_fd = out_fd, err_fd, res_fd
        self.scratch = scratch
        self.base_vm = base_vm
        self.uid = uid
        self.nproc = nproc
        self.limits = Limits.from_json(request.get("limits", {}))
        self.ipcns = False
        """Whether the run gets an IPC namespace of its own."""
        self.peer: list[int] | None = None
        """For a judge: ``[pid, channel fd, status fd]`` of the learner's process forked
        beside it (see ``companion``); the probe gets it as its ``peer`` argument."""
        self.cgroup: tuple[int, str] | None = None
        """The run's memory cgroup (the directory's descriptor, its name), joined first thing
        (``memcg``)."""


def child_main(job: Job) -> None:
    """Entry point in the forked child. Never returns, whatever the learner's code did."""
    exit_now = os._exit  # learner code may replace os._exit; this reference stays
    try:
        _child(job, exit_now)
    finally:
        exit_now(SETUP_FAILED)


def _child(job: Job, exit_now: Callable[[int], NoReturn], failed: dict[str, int] = FAILED) -> None:
    entered = time.monotonic()
    try:
        _prepare(job)
    except BaseException:  # noqa: BLE001 - anything here means no sandbox; refuse to run
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode()[-2000:])
        exit_now(SETUP_FAILED)
    ready = time.monotonic()
    failed = dict(failed)  # a copy made before learner code runs: it cannot rebind this one
    code = RAISED
    try:
        report = _execute(job.request, job.peer)
        if report.get("raised") is True:
            code = failed.get(report.get("kind", ""), RAISED)
        elif report.get("kind") == "exit":
            told = report.get("code")
            code = told % 256 if type(told) is int else 1  # as Python's own exit status
        else:
            code = 0
    except BaseException as exc:  # noqa: BLE001 - e.g. an exception whose __str__ raises
        report = {
            "kind": "error",
            "raised": True,
            "exception": {"type": _safe_name(exc), "message": "", "traceback": ""},
        }
    try:
        report["clock"] = {"entered": entered, "ready": ready, "ran": time.monotonic()}
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        data = b"\n" + json.dumps(report).encode() + b"\n"  # a line of its own (see watch.py)
        view = memoryview(data)
        while view:
            view = view[os.write(3, view) :]
        os.close(3)
    except BaseException:  # noqa: BLE001 - the status still comes from the exit code
        exit_now(RESULT_LOST if code == 0 else code)
    exit_now(code)


def companion(request: JsonObject) -> Companion | None:
    """The body of the learner's process to fork beside the probe this request calls, when
    the probe's module lists one in ``COMPANIONS`` (else None). Its modules were imported
    when the runtime started, so this runs nothing new in the runtime."""
    target = request.get("target")
    if request.get("op") != "call" or not isinstance(target, str) or not TARGET.match(target):
        return None
    module_name, func_name = target.split(":")
    table = getattr(sys.modules.get(module_name), "COMPANIONS", None)
    body: Companion | None = table.get(func_name) if isinstance(table, dict) else None
    return body


def companion_main(job: Job, body: Companion) -> None:
    """Entry point of the learner's process forked beside a judge: prepared like any run, with
    the channel to the judge at fd 3 (``job.res_fd``), then ``body(kwargs)()``. Never returns."""
    exit_now = os._exit
    try:
        _prepare(job)
        run = body(job.request.get("kwargs") or {})
    except BaseException:  # noqa: BLE001 - no sandbox, or no learner: the judge reports it
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode()[-2000:])
        exit_now(SETUP_FAILED)
    try:
        run()
    finally:
        exit_now(SETUP_FAILED)


def _safe_name(exc: BaseException) -> str:
    try:
        return str(type(exc).__name__)
    except BaseException:  # noqa: BLE001
        return "BaseException"


def _safe_str(exc: BaseException) -> str:
    """``str(exc)``, or a note when the exception's own ``__str__`` fails."""
    try:
        return str(exc)
    except BaseException:  # noqa: BLE001
        return "<the exception could not be shown>"


def _prepare(job: Job) -> None:
    """Memory cgroup, session, descriptors, scratch dir, environment, rlimits, user, signals,
    threads."""
    if job.cgroup is not None:  # before anything is touched, and while still root
        memcg.join(*job.cgroup)
    os.setsid()
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(job.out_fd, 1)
    os.dup2(job.err_fd, 2)
    os.dup2(job.res_fd, 3)
    kept = sorted(job.peer[1:]) if job.peer else []
    low = 4
    for fd in kept:  # the peer's descriptors, above 3 (the zygote opened them after its own)
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 65536)
    for sig in (
        signal.SIGINT,
        signal.SIGTERM,
        signal.SIGPIPE,
        signal.SIGXCPU,
        signal.SIGXFSZ,
        signal.SIGCHLD,
        signal.SIGHUP,
        signal.SIGUSR1,
        signal.SIGUSR2,
    ):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python normally runs: BrokenPipeError
    os.chdir(job.scratch)
    env = {key: os.environ[key] for key in RUN_KEEPS if key in os.environ}
    os.environ.clear()
    os.environ.update(env)
    os.environ.update(
        PATH="/usr/local/bin:/usr/bin:/bin",
        HOME=job.scratch,
        TMPDIR=job.scratch,
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        PYTHONIOENCODING="utf-8",
        **compile_env(os.path.join(os.path.dirname(job.scratch), "compile-cache")),
    )
    import tempfile

    tempfile.tempdir = job.scratch
    apply_rlimits(job.limits, job.base_vm, job.nproc)
    if job.ipcns:
        syscalls.unshare_ipc(libc())
    if os.geteuid() == 0 and job.uid is not None:
        os.setgroups([])
        os.setresgid(job.uid, job.uid, job.uid)
        os.setresuid(job.uid, job.uid, job.uid)
        if os.geteuid() == 0 or os.getuid() == 0:
            raise RuntimeError("could not drop root")
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    if job.peer is None:  # a judge stays non-dumpable (as the zygote is): its peer has its uid
        prctl(PR_SET_DUMPABLE, 1)
    if not os.access(sys.executable, os.X_OK):
        _refuse_new_pythons()
    torch.set_num_threads(max(1, job.limits.threads))
    _reseed()
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    sys.stdout = io.TextIOWrapper(
        io.FileIO(1, "w", closefd=False),
        encoding="utf-8",
        errors="backslashreplace",
        write_through=True,
    )
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False),
        encoding="utf-8",
        errors="backslashreplace",
        write_through=True,
    )
    sys.argv = [ANSWER]


#: why spawn and forkserver cannot work when the run's user cannot start this Python
NO_NEW_PYTHON = (
    "the {method} start method starts a new Python, and this sandbox's user cannot run {exe} "
    "(it lies in a directory only its owner can enter); use the fork start method "
    "(multiprocessing.get_context('fork'), or DataLoader(multiprocessing_context='fork')), or "
    "run the tutor with a Python installed where every user can read it"
)


def _refuse_new_pythons() -> None:
    """Make spawn and forkserver fail with a plain reason rather than a broken pipe, where the
    dropped uid cannot execute the interpreter (a friendly message, not a protection), and
    let shared memory and semaphores work without multiprocessing's resource tracker."""
    from multiprocessing import popen_forkserver, popen_spawn_posix, resource_tracker

    # the tracker is a new Python too; what it would unlink, the zygote removes after the run
    resource_tracker.register = resource_tracker.unregister = lambda name, rtype: None

    for module, method in ((popen_spawn_posix, "spawn"), (popen_forkserver, "forkserver")):

        def refuse(self: object, process_obj: object, method: str = method) -> NoReturn:
            raise RuntimeError(NO_NEW_PYTHON.format(method=method, exe=sys.executable))

        module.Popen._launch = refuse


def compile_env(cache: str) -> dict[str, str]:
    """Environment for torch.compile in a run: the runtime's compile cache (shared by its runs,
    so a second compile of the same code is fast) and compilation in the run's own process."""
    return {
        "TORCHINDUCTOR_CACHE_DIR": cache,
        "TRITON_CACHE_DIR": os.path.join(cache, "triton"),
        "TORCHINDUCTOR_COMPILE_THREADS": "1",
    }


def _reseed() -> None:
    """Random state as a new process would have it, so runs behave like ``python answer.py``.

    Python's and numpy's global RNGs get fresh entropy. torch's default generator does too when
    this torch seeds fresh processes from the OS (``RESEED_TORCH``); otherwise it keeps the
    zygote's untouched fixed-seed state, exactly what a fresh process of that torch starts with.
    """
    import random

    random.seed()
    if RESEED_TORCH:
        torch.default_generator.seed()  # the CPU generator; torch.seed() costs ~4 ms more
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        with contextlib.suppress(Exception):
            numpy.random.seed()


def _execute(request: JsonObject, peer: list[int] | None = None) -> JsonObject:
    """Run the code or call the probe; describe the outcome as a JSON-ready dict."""
    try:
        if request.get("op") == "call":
            kwargs = dict(request.get("kwargs") or {})
            kwargs.pop("peer", None)  # only the runtime says which process is the peer
            if peer is not None:
                kwargs["peer"] = peer
            value = _call(request["target"], kwargs)
            return {"kind": "ok", "value": value}
        _run(request["code"])
        return {"kind": "ok", "value": None}
    except SystemExit as exc:
        code = exc.code
        if code is None or code == 0:
            return {"kind": "ok", "value": None}
        return {
            "kind": "exit",
            "code": code if isinstance(code, int) else 1,
            "exception": _describe(exc, request),
        }
    except MemoryError as exc:
        return {"kind": "memory", "raised": True, "exception": _describe(exc, request)}
    except BaseException as exc:  # noqa: BLE001 - the learner's exception is the verdict
        return {"kind": _kind_of(exc), "raised": True, "exception": _describe(exc, request)}


def _run(code: str) -> None:
    """Execute learner code as ``__main__`` with torch, nn and F pre-imported.

    The code runs in a fresh module that replaces ``sys.modules["__main__"]``, so what it
    defines pickles by reference (multiprocessing, DataLoader workers). Its ``__file__`` is
    ``mpmain.py``, which a ``spawn``/``forkserver`` child runs to define the same names again.
    """
    linecache.cache[ANSWER] = (len(code), None, code.splitlines(True), ANSWER)
    compiled = compile(code, ANSWER, "exec")
    main = types.ModuleType("__main__")
    main.__dict__.update(
        __builtins__=builtins,
        __file__=mpmain.__file__,
        torch=torch,
        nn=torch.nn,
        F=torch.nn.functional,
    )
    sys.modules["__main__"] = main
    os.environ[mpmain.ENV] = mpmain.answer_path(os.getcwd())
    exec(compiled, main.__dict__)


def _call(target: str, kwargs: JsonObject) -> object:
    """Import ``tutor.probes.MODULE`` and call FUNCTION(**kwargs); return JSON data."""
    if not TARGET.match(target):
        raise ValueError(f"refusing target {target!r}: only tutor.probes.MODULE:FUNCTION")
    module_name, func_name = target.split(":")
    func = getattr(importlib.import_module(module_name), func_name)
    value = func(**kwargs)
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    json.dumps(value)  # fail here, as the probe's error, if it is not JSON data
    return value


def _kind_of(exc: BaseException) -> str:
    """Sort an exception into the verdict it implies: memory, file or error."""
    text = _safe_str(exc)
    if isinstance(exc, RuntimeError) and any(sign in text for sign in MEMORY_SIGNS):
        return "memory"
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        return "file"
    if isinstance(exc, OSError) and exc.errno == errno.ENOMEM:
        return "memory"
    return "error"


def _describe(exc: BaseException, request: JsonObject) -> dict[str, str]:
    """Type, message and a traceback of the learner's (or the probe's) frames only."""
    frames: list[traceback.FrameSummary] = traceback.extract_tb(exc.__traceback__)
    if request.get("op") == "call":
        here = __file__
        frames = [f for f in frames if f.filename != here]
    else:
        frames = [f for f in frames if f.filename == ANSWER]
    lines = traceback.format_list(frames)
    message = _safe_str(exc)
    head = f"{_safe_name(exc)}: {message}" if message else type(exc).__name__
    text = ("Traceback (most recent call last):\n" + "".join(lines) if lines else "") + head
    if isinstance(exc, SyntaxError) and exc.text:
        text = f'  File "{ANSWER}", line {exc.lineno}\n    {exc.text.strip()}\n{head}'
    message, text = keep_tail(message, MESSAGE_LIMIT), keep_tail(text, TRACEBACK_LIMIT)
    return {"type": _safe_name(exc), "message": message, "traceback": text}
