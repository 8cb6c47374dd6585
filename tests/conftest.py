"""Shared fixtures: every test gets its own TUTOR_HOME so no test touches real user data."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def tutor_home(tmp_path, monkeypatch):
    """A fresh, empty TUTOR_HOME for each test."""
    home = tmp_path / "tutor-home"
    home.mkdir()
    monkeypatch.setenv("TUTOR_HOME", str(home))
    monkeypatch.delenv("TUTOR_PACKS", raising=False)
    return home
