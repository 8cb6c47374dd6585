"""Fixtures for the content tests: the course's lessons and drills as the tests that hold them to
the course's numbers read them.

``course`` re-checks a lesson snippet at most once a session, through `tutor lesson check`'s own
``check_snippet``: the test that re-runs every snippet and the tests that look for one number in
a snippet's fresh output share that one run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.commands.lesson_run import Drift, check_snippet
from tutor.content.lesson_outputs import normalise, recorded_torch_version
from tutor.content.lesson_text import SnippetBlock, parse_snippets
from tutor.content.loader import load_pack
from tutor.content.models import ChoiceParam, Drill, IntParam
from tutor.grading.variants import render
from tutor.sandbox.pool import SandboxPool
from tutor.settings import PROJECT_ROOT

LESSONS = PROJECT_ROOT / "lessons"
DRILLS = PROJECT_ROOT / "drills"


class Course:
    """The shipped lessons and drills, and what real torch makes of them now."""

    def __init__(self, sandbox) -> None:
        self.sandbox = sandbox
        self._drifts: dict[tuple[Path, int], list[Drift]] = {}

    @staticmethod
    def lesson(name: str) -> Path:
        """The lesson file ``lessons/NAME`` (``NAME`` may be the file name or a path)."""
        return LESSONS / Path(name).name

    def snippet(self, lesson: str | Path, shows: str | None = None, *, code: str | None = None):
        """The first snippet of ``lesson`` whose recorded output shows ``shows`` (or, with
        ``code``, the one snippet whose code holds it)."""
        path = self.lesson(str(lesson))
        blocks = parse_snippets(path.read_text(encoding="utf-8"))
        if code is not None:
            found = [b for b in blocks if code in b.code]
            assert len(found) == 1, f"{path.name}: {len(found)} snippets contain {code!r}"
            return found[0]
        found = [b for b in blocks if b.output is not None and shows in normalise(b.output)]
        assert found, f"no recorded output of {path.name} shows {shows!r}"
        return found[0]

    def drifts(self, lesson: str | Path, line: int, xla=None) -> list[Drift]:
        """How the snippet on ``line`` differs now from its recorded output (``[]``: not at
        all); run once a session. ``xla``: the sandbox of the xla runtime, for its snippets."""
        path = self.lesson(str(lesson))
        if (path, line) not in self._drifts:
            given = {None: self.sandbox} | ({"xla": xla} if xla is not None else {})
            self._drifts[path, line] = check_snippet(
                path, line, SandboxPool(given=given), root=PROJECT_ROOT
            )
        return self._drifts[path, line]

    def fresh(self, lesson: str | Path, block: SnippetBlock, xla=None) -> str:
        """What the snippet prints now, run in the sandbox as `tutor lesson check` runs it."""
        drifts = self.drifts(lesson, block.line, xla)
        if not drifts:
            return normalise(block.output) or ""
        assert drifts[0].actual is not None, str(drifts[0])
        return drifts[0].actual

    def check_fact(self, lesson: str | Path, fact: str, needle: str, xla=None) -> None:
        """The course's ``fact`` holds twice: a snippet's recorded output shows ``needle``, and
        that snippet prints it again now."""
        fresh = self.fresh(lesson, self.snippet(lesson, needle), xla)
        assert needle in fresh, f"torch no longer prints {needle!r} ({fact})"

    def check_recorded(self, lesson: str | Path) -> None:
        """The lesson names the torch that recorded it, and every snippet has its output."""
        path = self.lesson(str(lesson))
        text = path.read_text(encoding="utf-8")
        assert recorded_torch_version(text), f"{path.name}: no torch version in the front matter"
        unrecorded = [b.line for b in parse_snippets(text) if b.output is None]
        assert not unrecorded, f"{path.name}: snippets without output on lines {unrecorded}"

    @staticmethod
    def drill(pack_file: str, drill_id: str) -> Drill:
        """The drill ``drill_id`` of the shipped pack ``drills/PACK_FILE``."""
        return next(d for d in load_pack(DRILLS / pack_file).drills if d.id == drill_id)

    @staticmethod
    def drawable(drill: Drill, params: dict) -> None:
        """The params that reproduce the course's example are ones a learner can draw."""
        for name, value in params.items():
            spec = drill.params[name]
            if isinstance(spec, IntParam):
                lo, hi = spec.int_
                assert lo <= value <= hi, f"{drill.id}: {name}={value} outside [{lo}, {hi}]"
            else:
                assert isinstance(spec, ChoiceParam), (drill.id, name)
                assert value in spec.choice, f"{drill.id}: {name}={value!r} not in {spec.choice}"

    def ask(self, drill: Drill, params: dict, *, sandbox=None, **limits):
        """The run of the drill's setup, then ``print(repr(ask))``, for ``params`` (drawable),
        in ``sandbox`` (the shared one by default) with ``limits`` (``timeout``, ...)."""
        self.drawable(drill, params)
        ask = render(drill.ask, params).strip()
        code = drill.setup_code(params) + f"\nprint(repr({ask}))\n"
        limits = {"timeout": 60.0, "memory_mb": 2048} | limits
        return (sandbox or self.sandbox).run(code, **limits)

    def truth(self, drill: Drill, params: dict, **kwargs) -> str:
        """The drill's truth for ``params``, as torch prints it now (the ask's repr)."""
        result = self.ask(drill, params, **kwargs)
        assert result.ok, f"{drill.id}: {result.status} {result.reason} {result.exception}"
        return result.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="session")
def course(sandbox) -> Course:
    """The shipped course, its snippets re-checked once a session in the shared sandbox."""
    return Course(sandbox)
