"""What every lab screen does the same way: run its probe as its row says (``Lab.call``: limits
and runtime) in the app's sandbox of that runtime, started on demand with its progress shown,
turn a failed run into one plain line, and say what went wrong in place of a traceback."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, cast

from pydantic import BaseModel
from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

from tutor.content.labs import Lab, ProbeCall, get_lab
from tutor.safe_text import strip_controls
from tutor.ui.widgets.run_status import RunStatus

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


class LabScreen(Screen[None]):
    """A lab screen: runs its probe as its row says and reports failures in place."""

    LAB: ClassVar[str] = ""
    """The name of the lab's row in ``tutor.content.labs``."""
    ERROR_LINE: ClassVar[str] = ""
    """The selector of the ``Static`` that says what went wrong (shown with class ``-shown``)."""

    @property
    def lab(self) -> Lab:
        """The lab's row."""
        return get_lab(self.LAB)

    @property
    def has_sandbox(self) -> bool:
        """Whether the app holds a sandbox to run probes in (tests with recorded data do not)."""
        return lab_host(self).sandbox is not None

    async def run_probe(self, model: type[M], *, busy: str, hint: str, **kwargs: Any) -> M | None:
        """Run the probe on ``kwargs`` with the ``RunStatus`` spinning and saying ``busy`` (or,
        while the lab's runtime starts, how long it has been starting); its data, or None once
        the error line says why (and, for a failed run, the status says ``hint``)."""
        status = self.query_one(RunStatus)
        status.running, status.message = True, busy

        def show(line: str) -> None:
            status.message = line or busy

        try:
            return await call_probe(lab_host(self), self.lab.call(**kwargs), model, show)
        except RuntimeMissing as err:
            self.show_error(str(err))
            status.message = hint
            return None
        except SandboxFailed as err:
            self.show_error(f"the sandbox could not run the lab: {err}")
            return None
        except RunFailed as err:
            failed = err
        finally:
            status.running = False
        self.show_error(failed.message)
        status.message = hint
        return None

    async def ask(self, model: type[M], **kwargs: Any) -> tuple[M | None, str]:
        """Run the probe on ``kwargs``: (its data, "") or (None, one plain line saying why there
        is none)."""
        try:
            return await call_probe(lab_host(self), self.lab.call(**kwargs), model), ""
        except RuntimeMissing as err:
            return None, str(err)
        except SandboxFailed as err:
            return None, f"the sandbox could not run this: {err}"
        except RunFailed as err:
            return None, err.detail

    def show_error(self, message: str) -> None:
        """Say what went wrong, in place of a traceback."""
        error = self.query_one(self.ERROR_LINE, Static)
        error.update(Text(strip_controls(message)))  # learner text: literal, no controls
        error.set_class(True, "-shown")

    def hide_error(self) -> None:
        """Take the error line away."""
        self.query_one(self.ERROR_LINE, Static).set_class(False, "-shown")

    def action_close(self) -> None:
        """Leave the lab."""
        self.app.pop_screen()
