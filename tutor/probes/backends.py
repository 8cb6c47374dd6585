"""Probe: which torch this runtime has and which backends it can use.

Runtime side (imports torch). Nothing at import time touches CUDA or starts threads: the zygote
pre-imports every probe module before it forks.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import platform
import shutil
import sys
import sysconfig
from typing import Any

import torch

from tutor.safe_text import keep_tail


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _xla() -> dict[str, Any]:
    """torch_xla: importable, its version and the PJRT device it would use."""
    if importlib.util.find_spec("torch_xla") is None:
        return {"available": False, "detail": "torch_xla is not installed"}
    info = {
        "available": False,
        "version": _version("torch_xla"),
        "pjrt_device": os.environ.get("PJRT_DEVICE"),
    }
    try:
        importlib.import_module("torch_xla")
        info["available"] = True
        runtime = importlib.import_module("torch_xla.runtime")
        info["device_type"] = runtime.device_type()
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        info["detail"] = keep_tail(f"{type(exc).__name__}: {exc}", 300)
    return info


def inductor(compiler: str | None = None, include: str | None = None) -> dict[str, Any]:
    """Whether torch.compile's default backend can build its C++ kernels in this process: a C++
    compiler it may run (``$CXX`` or g++, as inductor picks it) and a ``Python.h`` it may read
    (``sysconfig``'s include folder). ``detail`` says plainly what is missing."""
    compiler = compiler or os.environ.get("CXX") or "g++"
    include = include or sysconfig.get_path("include") or ""
    found = shutil.which(compiler)
    header = os.path.join(include, "Python.h")
    info: dict[str, Any] = {"available": False, "compiler": found or compiler, "headers": include}
    if found is None:
        info["detail"] = (
            f"no C++ compiler: {compiler} is not on the runtime's PATH; torch.compile's "
            "inductor builds its kernels with one (install g++)"
        )
    elif not os.access(header, os.R_OK):
        info["detail"] = (
            f"{header} is missing or unreadable here; torch.compile's inductor builds its "
            "kernels against it (install the Python development headers)"
        )
    else:
        info["available"] = True
    return info


def report(import_xla: bool = True) -> dict[str, Any]:
    """Torch version, Python, and the backends: cpu, cuda, mps, xla (with PJRT device), torchax,
    and inductor (torch.compile's C++ kernels: see ``inductor``)."""
    cuda: dict[str, Any] = {"available": bool(torch.cuda.is_available())}
    if cuda["available"]:
        cuda["devices"] = torch.cuda.device_count()
        cuda["names"] = [torch.cuda.get_device_name(i) for i in range(cuda["devices"])]
    mps_backend = getattr(torch.backends, "mps", None)
    mps = {"available": bool(mps_backend and mps_backend.is_available())}
    torchax = {
        "available": importlib.util.find_spec("torchax") is not None,
        "version": _version("torchax"),
    }
    xla = _xla() if import_xla else {"available": importlib.util.find_spec("torch_xla") is not None}
    return {
        "torch": torch.__version__,
        "python": platform.python_version(),
        "executable": sys.executable,
        "backends": {
            "cpu": {"available": True, "threads": torch.get_num_threads()},
            "cuda": cuda,
            "mps": mps,
            "xla": xla,
            "torchax": torchax,
            "inductor": inductor(),
        },
    }
