"""Runtime side of the device & checkpoint lab: a real device mismatch on ``meta``, a real
state_dict round trip in the scratch dir, and a pickled model that breaks after a refactor."""

from __future__ import annotations

import os
import pickletools
import re
import sys
import tempfile
import types
import zipfile
from pathlib import Path
from typing import Any

import torch

from tutor.probes import data_checkpoint as data
from tutor.probes.data_checkpoint import (
    Checkpoint,
    DeviceDemo,
    Failure,
    PickledModel,
    RoundTrip,
    SavedEntry,
)

ANSI = re.compile(r"\x1b\[[0-9;]*m")
MODULE = "mymodels"


def failure(exc: BaseException) -> Failure:
    """An exception as data (terminal colour codes removed)."""
    return Failure(type=type(exc).__name__, message=ANSI.sub("", str(exc)).strip())


def attempt(code: str, ns: dict[str, Any]) -> Failure | None:
    """Exec ``code``; the exception it raised, or None."""
    try:
        exec(code, ns)
    except Exception as exc:
        return failure(exc)
    return None


def fresh_ns(**extra: Any) -> dict[str, Any]:
    """Globals with torch and nn."""
    return {"torch": torch, "nn": torch.nn, **extra}


def pickle_globals(path: Path) -> tuple[list[str], list[str]]:
    """The archive's member names and the ``module.name`` globals its pickle references."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        pkl = archive.read(next(n for n in names if n.endswith("data.pkl")))
    found: set[str] = set()
    memo: dict[int, Any] = {}
    pushed: list[Any] = []
    arg: Any
    for op, arg, _ in pickletools.genops(pkl):
        if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE", "BINUNICODE8"):
            pushed.append(arg)
        elif op.name in ("BINGET", "LONG_BINGET", "GET"):
            pushed.append(memo.get(int(arg)))
        elif op.name == "MEMOIZE":
            memo[len(memo)] = pushed[-1] if pushed else None
        elif op.name in ("BINPUT", "LONG_BINPUT", "PUT"):
            memo[int(arg)] = pushed[-1] if pushed else None
        elif op.name == "GLOBAL":
            found.add(arg.replace(" ", "."))
        elif op.name == "STACK_GLOBAL" and len(pushed) >= 2:
            found.add(f"{pushed[-2]}.{pushed[-1]}")
        else:
            pushed.append(None)
    return names, sorted(found)


def device_demo() -> DeviceDemo:
    """(a) The mismatch for real, then the fix."""
    torch.manual_seed(0)
    ns = fresh_ns()
    error = attempt(data.DEVICE_CODE, ns)
    exec(data.FIX_CODE, ns)
    moved = attempt(data.MODEL_TO_CODE, ns)
    return DeviceDemo(
        code=data.DEVICE_CODE,
        model_device=str(ns["model"].weight.device),
        input_device=str(ns["x"].device),
        error=error,
        fix_code=data.FIX_CODE,
        fix_shape=list(ns["out"].shape),
        fix_device=str(ns["out"].device),
        model_to_code=data.MODEL_TO_CODE,
        model_to=moved,
    )


def round_trip(folder: Path) -> RoundTrip:
    """(b) Save a state_dict, load it into a fresh model with ``weights_only=True``."""
    torch.manual_seed(0)
    path = folder / "model.pt"
    ns = fresh_ns(path=path)
    exec(f"model = {data.STATE_DICT_MODEL}", ns)
    exec(data.SAVE_CODE, ns)
    torch.manual_seed(1)
    exec(f"fresh = {data.STATE_DICT_MODEL}", ns)
    exec(f"result = {data.LOAD_CODE}", ns)
    state, loaded = ns["model"].state_dict(), ns["fresh"].state_dict()
    archive, globs = pickle_globals(path)
    probe = torch.randn(5, 4)
    with torch.no_grad():
        outputs_equal = torch.equal(ns["model"](probe), ns["fresh"](probe))
    return RoundTrip(
        model=data.STATE_DICT_MODEL,
        save_code=data.SAVE_CODE,
        load_code=data.LOAD_CODE,
        file_name=path.name,
        file_bytes=path.stat().st_size,
        tensor_bytes=sum(t.numel() * t.element_size() for t in state.values()),
        entries=[
            SavedEntry(key=k, shape=list(t.shape), dtype=str(t.dtype), numel=t.numel())
            for k, t in state.items()
        ],
        archive=archive,
        globals=globs,
        missing_keys=list(ns["result"].missing_keys),
        unexpected_keys=list(ns["result"].unexpected_keys),
        equal=state.keys() == loaded.keys()
        and all(torch.equal(state[k], loaded[k]) for k in state),
        outputs_equal=outputs_equal,
    )


def install(source: str) -> types.ModuleType:
    """Make ``source`` importable as the module ``mymodels`` (replacing any earlier version)."""
    module = types.ModuleType(MODULE)
    module.__dict__["nn"] = torch.nn
    exec(compile(source, f"{MODULE}.py", "exec"), module.__dict__)
    sys.modules[MODULE] = module
    return module


def load_full(path: Path, weights_only: bool) -> tuple[Any, Failure | None]:
    """``torch.load`` of a whole pickled model: the object, or the failure."""
    try:
        return torch.load(path, weights_only=weights_only), None
    except Exception as exc:
        return None, failure(exc)


def pickled_model(folder: Path) -> PickledModel:
    """(c) ``torch.save(model)``, then load it after two refactors and with weights_only."""
    path = folder / "whole_model.pt"
    previous = sys.modules.get(MODULE)
    try:
        torch.manual_seed(0)
        model = install(data.MODEL_SOURCE).TinyNet()
        torch.save(model, path)
        archive, globs = pickle_globals(path)
        same, _ = load_full(path, weights_only=False)
        _, refused = load_full(path, weights_only=True)
        install(data.RENAMED_SOURCE)
        _, renamed = load_full(path, weights_only=False)
        install(data.CHANGED_SOURCE)
        changed_model, changed = load_full(path, weights_only=False)
        if changed is None:
            try:
                changed_model(torch.randn(1, 4))
            except Exception as exc:
                changed = failure(exc)
    finally:
        if previous is None:
            sys.modules.pop(MODULE, None)
        else:
            sys.modules[MODULE] = previous
    return PickledModel(
        source=data.MODEL_SOURCE,
        file_bytes=path.stat().st_size,
        archive=archive,
        globals=globs,
        class_path=next((g for g in globs if g.startswith(f"{MODULE}.")), ""),
        loads_unchanged=same is not None and torch.equal(same.fc.weight, model.fc.weight),
        weights_only=refused,
        renamed_source=data.RENAMED_SOURCE,
        renamed=renamed,
        changed_source=data.CHANGED_SOURCE,
        changed=changed,
        changed_loaded=changed_model is not None,
    )


def checkpoint(scratch: str | None = None) -> Checkpoint:
    """Run all three demonstrations; files go to a folder inside ``scratch`` (default: cwd)."""
    base = scratch or os.getcwd()
    try:
        folder = tempfile.TemporaryDirectory(prefix="checkpoint-", dir=base)
    except OSError:
        folder = tempfile.TemporaryDirectory(prefix="checkpoint-")
    with folder as name:
        return Checkpoint(
            device=device_demo(),
            round_trip=round_trip(Path(name)),
            pickled=pickled_model(Path(name)),
            torch_version=torch.__version__,
        )
