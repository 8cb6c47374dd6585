"""Fixtures for the sandbox tests: one warm sandbox per containment layer, shared per module."""

from __future__ import annotations

import os
import shutil

import pytest

from tutor.sandbox import Sandbox
from tutor.sandbox.containment import bwrap_works

LAYERS = ["rlimits", "bwrap"]


def layer_params() -> list:
    """Both layers; bwrap is skipped (with the reason) where it cannot run."""
    usable = shutil.which("bwrap") is not None and bwrap_works()
    return [
        pytest.param("rlimits", id="rlimits"),
        pytest.param(
            "bwrap",
            id="bwrap",
            marks=pytest.mark.skipif(not usable, reason="bubblewrap is not usable here"),
        ),
    ]


@pytest.fixture(scope="module", params=layer_params())
def sandbox(request):
    """A started sandbox with the layer named by the parameter."""
    box = Sandbox(containment=request.param)
    box.start()
    yield box
    box.close()


@pytest.fixture
def as_root() -> bool:
    """Whether the tests run as root (the uid-drop layer is then active)."""
    return os.geteuid() == 0


@pytest.fixture
def leftovers():
    """A function listing the processes a run left behind (see ``find_leftovers``)."""
    return find_leftovers


def find_leftovers(box: Sandbox) -> list[int]:
    """Processes a run left behind: below the runtime but not the runtime itself, and, when
    runs have a dedicated uid, any process at all owned by that uid."""
    from tutor.sandbox import reaper

    found = set()
    root = box.runtime_pid
    if root is not None:
        for pid in reaper.descendants(root):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    cmd = fh.read()
            except OSError:
                continue
            if b"tutor.sandbox.zygote" in cmd or cmd.split(b"\0")[0].endswith(b"bwrap"):
                continue
            found.add(pid)
    uid = (box.ready or {}).get("uid")
    if uid is not None:
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    if os.stat(f"/proc/{name}").st_uid == uid:
                        found.add(int(name))
                except OSError:
                    continue
    return sorted(found)
