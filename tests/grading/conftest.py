"""Fixtures for the grading tests: the fixture packs (the shared ``sandbox`` is the session's)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tutor.content.loader import load_pack
from tutor.content.models import Drill

PACKS = Path(__file__).parent / "packs"


@dataclass
class Ref:
    """A drill reference as the catalog hands it to the engine."""

    full_id: str
    drill: Drill


def refs(pack_file: str) -> dict[str, Ref]:
    pack = load_pack(PACKS / pack_file)
    return {d.id: Ref(pack.full_id(d), d) for d in pack.drills}


@pytest.fixture(scope="session")
def basics() -> dict[str, Ref]:
    """The drills of tests/grading/packs/basics.yaml by id."""
    return refs("basics.yaml")
