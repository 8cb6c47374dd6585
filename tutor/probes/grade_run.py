"""Runtime side helpers shared by the grading probes: fresh namespaces and located errors."""

from __future__ import annotations

import builtins
import sys
import traceback
from typing import Any

import torch

from tutor.safe_text import keep_tail

#: errors in a drill's own code that mean the drill is broken, not that torch raised
AUTHORING_ERRORS = (NameError, SyntaxError, ImportError)


#: whether this torch was built with a device whose generators ``torch.manual_seed`` seeds too
_DEVICE_GENERATORS = bool(
    torch.cuda._is_compiled()
    or torch.backends.mps.is_built()
    or getattr(torch._C, "_has_xpu", False)
)


def manual_seed(seed: int) -> None:
    """``torch.manual_seed(seed)``, cheaply where torch has only CPU generators.

    On such a build ``torch.manual_seed`` still queues lazy seeding of CUDA, MPS and XPU,
    each capturing a formatted stack (0.4-1.5 ms per call here, and grading seeds once per
    trial); seeding the CPU generator is all it changes there.
    """
    if _DEVICE_GENERATORS:
        torch.manual_seed(seed)
    else:
        torch.default_generator.manual_seed(seed)


def fresh_namespace() -> dict[str, Any]:
    """Globals for one piece of drill or learner code: ``torch``, ``nn`` and ``F`` imported.

    Also forgets what ``torch.compile`` learned from code run earlier in this process: Dynamo
    keys its caches and its automatic-dynamic sizes by file name and line, and every piece of
    drill code is compiled as ``<setup>``/``<answer>``, so without this a second seed's run would
    inherit the first one's recompiles (a graph count would depend on what ran before).
    """
    dynamo = sys.modules.get("torch._dynamo")
    if dynamo is not None:  # never imported: nothing was compiled
        dynamo.reset()
    return {
        "__name__": "__main__",
        "__builtins__": builtins,
        "torch": torch,
        "nn": torch.nn,
        "F": torch.nn.functional,
    }


def error_line(exc: BaseException, filename: str) -> int | None:
    """The line (1-based, within the code compiled as ``filename``) where ``exc`` arose."""
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return exc.lineno
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == filename:
            line = frame.lineno
    return line


def describe_error(exc: BaseException, filename: str) -> dict[str, Any]:
    """An exception as data: ``type``, ``message`` and the ``line`` in ``filename``."""
    message = str(exc)
    if isinstance(exc, SyntaxError):
        message = exc.msg
    return {
        "type": type(exc).__name__,
        "message": keep_tail(message, 2000),
        "line": error_line(exc, filename),
    }


def run_code(code: str, namespace: dict[str, Any], filename: str) -> None:
    """Compile ``code`` under ``filename`` (so errors can be located) and run it."""
    exec(compile(code, filename, "exec"), namespace)
