"""The sandbox: run learner code and probes in a contained torch runtime.

Importing this package (the supervisor side) never imports torch. ``Sandbox`` and
``AsyncSandbox`` load lazily so the runtime can import the torch-free helper modules cheaply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tutor.sandbox.result import ExceptionInfo, RunResult, Status
    from tutor.sandbox.supervisor import AsyncSandbox, SandboxError
    from tutor.sandbox.sync import Sandbox

__all__ = ["AsyncSandbox", "ExceptionInfo", "RunResult", "Sandbox", "SandboxError", "Status"]

_WHERE = {
    "AsyncSandbox": "tutor.sandbox.supervisor",
    "SandboxError": "tutor.sandbox.supervisor",
    "Sandbox": "tutor.sandbox.sync",
    "RunResult": "tutor.sandbox.result",
    "Status": "tutor.sandbox.result",
    "ExceptionInfo": "tutor.sandbox.result",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'tutor.sandbox' has no attribute {name!r}")
