"""How a lab screen runs its probe: a ``ProbeCall`` (the row's limits and runtime) made in the
app's sandbox of that runtime, started on demand with its progress shown, and its failures as
exceptions that say in one plain line what went wrong."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from pydantic import BaseModel

from tutor.content.labs import ProbeCall

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from tutor.sandbox.result import RunResult
    from tutor.sandbox.supervisor import AsyncSandbox
    from tutor.ui.runtimes import Sandboxes

M = TypeVar("M", bound=BaseModel)


class ProbeError(Exception):
    """A probe call that brought back no data."""


class SandboxFailed(ProbeError):
    """The sandbox itself failed (``str()`` is its error)."""


class RuntimeMissing(ProbeError):
    """The runtime the lab needs cannot be had (``str()`` says how to get it, e.g. "the xla
    runtime is not built: run `make xla-runtime`")."""


class RunFailed(ProbeError):
    """The probe ran and failed (raised, timed out, ran out of memory, ...)."""

    def __init__(self, result: RunResult) -> None:
        self.result = result
        """The verdict of the run."""
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The exception's message, else the reason, else the status."""
        return self.result.message

    @property
    def detail(self) -> str:
        """``Type: message`` of the exception, else the reason, else a line naming the status."""
        result = self.result
        if result.exception is not None:
            return f"{result.exception.type}: {result.exception.message}"
        return result.reason or f"the run ended with status {result.status}"


class LabHost(Protocol):
    """What a lab needs of the app it runs in (the tutor app, or a test's bare app)."""

    @property
    def sandbox(self) -> AsyncSandbox | None:
        """The sandbox probes run in (None: nothing runs; the lab shows recorded data)."""
        ...

    @property
    def sandboxes(self) -> Sandboxes:
        """A sandbox per runtime (``sandbox`` is the default one's), each started on demand."""
        ...


def lab_host(node: DOMNode) -> LabHost:
    """The app ``node`` belongs to, as a lab host (Textual types ``node.app`` as a plain App)."""
    return cast("LabHost", node.app)


def _quiet(line: str) -> None:
    """Progress nobody shows."""


async def call_probe(
    host: LabHost, call: ProbeCall, model: type[M], show: Callable[[str], None] = _quiet
) -> M:
    """Make ``call`` in ``host``'s sandbox of its runtime (started first if need be, ``show``
    getting "starting the xla runtime… Ns" every second meanwhile, and "" once it runs); its
    data as ``model``.

    Raises ``RuntimeMissing`` when that runtime cannot be had, ``SandboxFailed`` when the
    sandbox could not run it (or there is none), ``RunFailed`` when it ran and failed."""
    from tutor.sandbox.runtimes import RuntimeNotFound

    if host.sandbox is None:
        raise SandboxFailed("no sandbox to run it in")
    try:
        sandbox = await host.sandboxes.ready(call.runtime, show)
        show("")
        result = await sandbox.call(call.lab.probe, **call.options(), **call.kwargs)
    except RuntimeNotFound as err:
        raise RuntimeMissing(str(err)) from err
    except Exception as err:  # the sandbox itself failed: say so, keep the screen alive
        raise SandboxFailed(str(err)) from err
    if not result.ok:
        raise RunFailed(result)
    return call.data(result.value, model)
