"""Runtime side, in the judge: talk to the learner's process and stand in for its objects.

:class:`Learner` receives and validates each message (``data_grading``) before rebuilding any
value from it, and tells how the process ended when it sent nothing. :class:`Remote` stands for
an object that stays in the learner's process (its function, its module): the judge's
``assert`` code may get its attributes, call it, index or iterate it; each such step is one
request, and what comes back is data again (or another ``Remote``). The judge's code, the
values it compares and the functions it compares with never leave the judge.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import sys
from typing import Any

from pydantic import TypeAdapter, ValidationError

from tutor.probes.data_grading import Ended, ExitInfo, LearnerMessage, Ran, Reply
from tutor.probes.grade_link import LEARNER_FAILED, Gone, TooLarge, recv, send
from tutor.probes.grade_wire import Malformed, Unsupported, from_wire, to_wire

_MESSAGE = TypeAdapter(LearnerMessage)


class BadData(Exception):
    """The learner's process sent something that is not valid data."""


class LearnerRaised(Exception):
    """An exception raised in the learner's process, by name and message."""


_RAISED: dict[str, type[LearnerRaised]] = {}


def _raised(name: str, message: str) -> LearnerRaised:
    if not name.isidentifier():
        name = "Exception"
    kind = _RAISED.setdefault(name, type(name, (LearnerRaised,), {}))
    return kind(message)


class Remote:
    """An object of the learner's process, seen from the judge."""

    def __init__(self, link: Learner, handle: dict[str, Any]) -> None:
        object.__setattr__(self, "_remote", (link, int(handle["id"]), handle))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        link, number, _ = object.__getattribute__(self, "_remote")
        return link.request("getattr", h=number, name=name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        link, number, _ = object.__getattribute__(self, "_remote")
        wired = [link.arg(a) for a in args]
        named = {k: link.arg(v) for k, v in kwargs.items()}
        return link.request("call", h=number, args=wired, kwargs=named)

    def __getitem__(self, key: Any) -> Any:
        link, number, _ = object.__getattribute__(self, "_remote")
        return link.request("getitem", h=number, key=link.arg(key))

    def __len__(self) -> int:
        link, number, _ = object.__getattribute__(self, "_remote")
        n = link.request("len", h=number)
        if type(n) is not int:
            raise TypeError("len() of your object is not an int")
        return n

    def __iter__(self) -> Any:
        link, number, _ = object.__getattribute__(self, "_remote")
        it = link.request("iter", h=number)
        if not isinstance(it, Remote):
            raise TypeError("iter() of your object gave no iterator")
        inner = object.__getattribute__(it, "_remote")[1]
        while True:
            item = link.request("next", h=inner, _stop=_STOP)
            if item is _STOP:
                return
            yield item

    def __repr__(self) -> str:
        return f"<your {object.__getattribute__(self, '_remote')[2]['pytype']}>"

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        """The torch class the object claims to be (for ``isinstance``: ``nn.Module``, a
        ``DataLoader``), else ``Remote``. Only a class written in Python all the way down is
        ever claimed: a claim of ``torch.Tensor`` (or any class with C-level storage) would let
        the judge's torch read a ``Remote`` as a tensor's memory."""
        handle = object.__getattribute__(self, "_remote")[2]
        return claimed_class(handle.get("module", ""), handle.get("qualname", ""))


_STOP = object()
_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement, not by C code


def claimed_class(module: str, qualname: str) -> type:
    """The torch class a learner object's handle names, if the judge may let it claim that
    class: one of torch's, and pure Python (every class of its MRO but ``object`` made by a
    class statement); anything else is ``Remote``."""
    if not (module == "torch" or module.startswith("torch.")):
        return Remote
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not isinstance(found, type):
        return Remote
    if any(not k.__flags__ & _HEAPTYPE for k in found.__mro__ if k is not object):
        return Remote
    return found


class Learner:
    """The judge's side of the channel to one learner process.

    The process is the judge's own child (forked by ``grade_link.spawn``), or, with
    ``status_fd``, its sibling that the runtime forked beside it: the runtime reaps that one
    and writes its wait status (4 bytes) on ``status_fd`` when it ends.
    """

    def __init__(self, pid: int, sock: socket.socket, status_fd: int | None = None) -> None:
        self.pid, self.sock = pid, sock
        self.status_fd = status_fd
        self.status: int | None = None
        self.forbidden: list[str] = []

    def receive(self) -> tuple[Ran | Reply | Ended, Any]:
        """The next message, validated, and its raw form (raises Gone or BadData).

        The raw form is what values are rebuilt from, once the model has accepted it."""
        try:
            raw = recv(self.sock)
        except (TooLarge, ValueError, RecursionError) as exc:
            raise BadData(f"it sent something that is not data ({exc})") from None
        try:
            message = _MESSAGE.validate_python(raw)
        except (ValidationError, RecursionError) as exc:
            first = exc.errors()[0] if isinstance(exc, ValidationError) else {"msg": str(exc)}
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise BadData(f"its message does not fit ({where}: {first['msg']})") from None
        self.forbidden = list(message.forbidden)  # every message carries what was traced so far
        return message, raw

    def value(self, raw: dict[str, Any]) -> Any:
        """Rebuild a validated wire value (handles become ``Remote``)."""
        try:
            return from_wire(raw, self._stand_in)
        except (Malformed, ValueError, TypeError, RuntimeError) as exc:
            raise BadData(f"it sent a value that cannot be rebuilt ({exc})") from None

    def _stand_in(self, d: dict[str, Any]) -> Any:
        if d["t"] == "handle":
            return Remote(self, d)
        return Unsupported("a reference to an object of the judge")

    def ran(self) -> tuple[Ran, dict[str, Any]]:
        """The ``ran`` message, and its raw form (whose wire values ``value`` rebuilds)."""
        message, raw = self.receive()
        if not isinstance(message, Ran):
            raise BadData(f"it sent {message.op!r} where its results belong")
        return message, raw

    def arg(self, value: Any) -> dict[str, Any]:
        """A value of the judge as wire data for the learner's process."""

        def ref(obj: Any) -> int | None:
            if type(obj) is Remote:
                remote = object.__getattribute__(obj, "_remote")
                if remote[0] is self:
                    number: int = remote[1]
                    return number
            return None

        wired = to_wire(value, refs=ref)
        if _has_unsupported(wired):
            kind = type(value).__name__
            raise TypeError(f"the check cannot hand a {kind} to your code (only data crosses)")
        return wired

    def request(self, op: str, _stop: Any = None, **fields: Any) -> Any:
        """One request; the reply's value (a learner exception is raised here by name)."""
        try:
            send(self.sock, {"op": op, **fields})
        except OSError as exc:
            raise Gone(str(exc)) from None
        message, raw = self.receive()
        if not isinstance(message, Reply):
            raise BadData(f"it sent {message.op!r} where a reply belongs")
        if message.error is not None:
            raise _raised(message.error.type, message.error.message)
        if message.stop:
            if _stop is None:
                raise BadData("it ended an iteration nobody asked for")
            return _stop
        return self.value(raw.get("value") or {"t": "none"})

    def end(self) -> list[str]:
        """The forbidden calls traced, as the last message reported them; the process is let go
        when the channel closes (``finish``)."""
        return list(self.forbidden)

    def kill(self) -> None:
        """Stop the process now (it sent what no honest process sends)."""
        if self.status is None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)

    def release(self) -> None:
        """Close the channel and stop the process, without waiting for its end (the runtime,
        or the next ``spawn``, reaps it): the judge has what it needs, or stopped early and
        needs nothing more (a learner still computing must not hold a core meanwhile)."""
        with contextlib.suppress(OSError):
            self.sock.close()
        reaped = self.status_fd is not None and (
            self.status_fd < 0 or bool(select.select([self.status_fd], [], [], 0)[0])
        )  # a sibling the runtime already reaped: its pid is no longer its own
        if not reaped:
            self.kill()
        if self.status_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.status_fd)
            self.status_fd = -1

    def finish(self, wait: float = 1.0) -> ExitInfo | None:
        """How the process ended, if badly (killed if it lingers past ``wait`` s)."""
        with contextlib.suppress(OSError):
            self.sock.close()
        if self.status is None and self.status_fd is not None:
            self.status = self._sibling_status(wait)
        elif self.status is None:
            self.status = self._child_status(wait)
        return describe_exit(self.status) if self.status is not None else None

    def _child_status(self, wait: float) -> int:
        try:
            fd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            fd = None
        if fd is not None:
            ready, _, _ = select.select([fd], [], [], wait)
            os.close(fd)
            if not ready:
                self.kill()
        else:
            self.kill()
        return os.waitpid(self.pid, 0)[1]

    def _sibling_status(self, wait: float) -> int | None:
        """The wait status the runtime sends when it reaps the sibling (None: unknown)."""
        fd = self.status_fd
        if fd is None or fd < 0:
            return None
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            self.kill()
            ready, _, _ = select.select([fd], [], [], wait)
        data = os.read(fd, 4) if ready else b""
        os.close(fd)
        self.status_fd = -1
        return int.from_bytes(data, "little", signed=True) if len(data) == 4 else None


def own_module(name: str, value: Any) -> Any:
    """The judge's own module for a learner name bound to the module of that very name that the
    judge has loaded too (``import io`` in setup: the assert's ``io`` is the judge's ``io``);
    else ``value`` unchanged."""
    if type(value) is not Remote:
        return value
    handle = object.__getattribute__(value, "_remote")[2]
    if handle["pytype"] == "module" and handle.get("name") == name and name in sys.modules:
        return sys.modules[name]
    return value


def describe_exit(status: int) -> ExitInfo | None:
    """How a learner process ended, when that ending is worth a verdict (None: a clean end)."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        return ExitInfo(signal=name)
    code = os.WEXITSTATUS(status)
    if code == 0:
        return None
    note = "its process failed (see stderr)" if code == LEARNER_FAILED else ""
    return ExitInfo(code=code, note=note)


def _has_unsupported(wired: dict[str, Any]) -> bool:
    if wired.get("t") == "unsupported":
        return True
    items = wired.get("items")
    if wired.get("t") in ("tuple", "list"):
        return any(_has_unsupported(v) for v in items or [])
    if wired.get("t") == "dict":
        return any(_has_unsupported(k) or _has_unsupported(v) for k, v in items or [])
    return False
