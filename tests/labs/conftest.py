"""Fixtures for the lab tests (the helpers are in ``harness.py``)."""

from __future__ import annotations

import pytest

from tutor.sandbox import AsyncSandbox


@pytest.fixture
async def sandbox():
    """A real sandbox for the lab screens to run their probes in."""
    box = AsyncSandbox()
    yield box
    await box.close()
