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


def unread(ref: Ref, answer: str, seed: int, sandbox):
    """The grade of ``answer`` made without reading it (neither the UI's pre-pass nor the
    judge's own reading): the sandbox call made straight away. How the judge's other defences
    are tested against answers the reading refuses anyway."""
    from tutor.grading import codecheck
    from tutor.grading.engine import CODE_TIMEOUT, judge, run_call
    from tutor.grading.grade import Call, Plan
    from tutor.grading.variants import draw_params

    drill = ref.drill
    params = draw_params(drill.params, seed)
    kwargs = codecheck.code_kwargs(drill, params, answer, seed)  # type: ignore[arg-type]
    kwargs["read"] = False  # the judge's own reading too: its other defences are under test
    call = Call(target=codecheck.TARGET, kwargs=kwargs, timeout=CODE_TIMEOUT, profile=drill.profile)
    p = Plan(seed=seed, params=params, call=call)
    return judge(ref, p, answer, run_call(p, sandbox))
