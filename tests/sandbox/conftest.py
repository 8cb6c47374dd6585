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
