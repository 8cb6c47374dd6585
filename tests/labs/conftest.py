"""Fixtures for the lab tests (the helpers are in ``harness.py``).

One real sandbox per test module: its runtime starts once and serves every Pilot test of the
module (a run that times out or crashes leaves it usable: the runtime restarts on demand). A test
module that uses it runs its async tests in the module's event loop: it sets
``pytestmark = pytest.mark.asyncio(loop_scope="module")``."""

from __future__ import annotations

import pytest_asyncio

from tutor.sandbox import AsyncSandbox


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sandbox():
    """A real sandbox for the lab screens to run their probes in, shared by the module."""
    box = AsyncSandbox()
    yield box
    await box.close()
