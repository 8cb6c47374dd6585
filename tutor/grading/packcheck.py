"""The sandbox stage of ``tutor pack check``: run every drill of a pack and prove it gradable.

Each drill's kind says what to prove (``Kind.check``, ``tutor.grading.kinds``): a predict
drill's truths can be typed and its likely mistakes differ from them; an order drill checked
by running passes in its own right orders; a code/fix drill's reference passes its own check
on every seed, its starter and ``wrong`` answers fail it, and no forged answer passes it. A
kind gets a :class:`DrillCheck`: its problems are ``Problem(file, line, col, field, message)``
naming the field (``drills[2].wrong[0]``), its answers are graded through the engine a
learner's grading goes through, the seeds of one answer batched into one sandbox call.

A drill declaring a ``runtime`` runs there: each runtime needed is started once (a
``SandboxPool``). A drill whose runtime is not built is skipped with the reason (it needs the
xla runtime: run `make xla-runtime`), and is a problem only where that runtime is required
(``TUTOR_REQUIRE_XLA=1``).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.content.loader import load_pack_located
from tutor.content.models import Drill, Pack
from tutor.content.positions import Locator, dotted
from tutor.content.problems import PackError, Problem
from tutor.grading.engine import CODE_TIMEOUT, grade_batch, run_batch
from tutor.grading.grade import Plan
from tutor.grading.kinds import kind_of
from tutor.grading.kinds.base import DrillRef, Graded, Where
from tutor.grading.variants import draw_params, render
from tutor.sandbox.result import RunResult

if TYPE_CHECKING:
    from tutor.sandbox import Sandbox
    from tutor.sandbox.pool import SandboxPool

SEEDS = range(5)
#: where in a pack file a problem is: ("drills", 2, "wrong", 0)
Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class _Ref:
    full_id: str
    drill: Drill


class _Reporter:
    """Makes Problems for one pack file, mapping lines of embedded code to file lines."""

    def __init__(self, pack: Pack, locator: Locator) -> None:
        self.locator = locator
        source = Path(pack.source) if pack.source else None
        self.lines = source.read_text(encoding="utf-8").splitlines() if source else []
        self.problems: list[Problem] = []

    def add(
        self, path: Path_, message: str, code_line: int | None = None, severity: str = "error"
    ) -> None:
        line, col = self.locator.at(path)
        if code_line:
            text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            if text[col - 1 : col] in ("|", ">"):  # block scalar: the code starts below
                line, col = line + code_line, 1
            elif code_line > 1:
                line, col = line + code_line - 1, 1
        self.problems.append(Problem(self.locator.file, line, col, dotted(path), message, severity))


def where(drill: Drill, seed: int) -> str:
    """``seed`` and the params it draws, as a problem names a variant."""
    params = draw_params(drill.params, seed)
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"seed {seed}" + (f" ({shown})" if shown else "")


def time_limit(drill: Drill) -> float:
    """The seconds one grading of ``drill`` may run: the engine's limit, raised by the drill's
    limits profile."""
    from tutor.sandbox.limits import PROFILES

    return max(CODE_TIMEOUT, float(PROFILES[drill.profile].get("timeout", 0)))


class DrillCheck:
    """What a kind's ``check`` gets for drill ``index`` of a pack (``kinds.base.PackCheck``):
    its problems go to the pack's reporter, its answers through the grading engine."""

    seeds: Sequence[int] = SEEDS

    def __init__(self, ref: DrillRef, index: int, sandbox: Sandbox, rep: _Reporter) -> None:
        self.ref, self.index, self.sandbox, self.rep = ref, index, sandbox, rep

    def report(
        self, where: Where, message: str, code_line: int | None = None, severity: str = "error"
    ) -> None:
        self.rep.add(("drills", self.index, *where), message, code_line, severity)

    def report_code(self, field: str, message: str, line: int | None) -> None:
        """An error of ``field`` at code line ``line``: a ``setup`` error in the code the pack
        gives (its ``setup``, a used drill's reference) at the drill's ``uses`` or the pack's
        ``setup``, with what it is."""
        drill = self.ref.drill
        if field != "setup" or not line:
            self.report((field,), message, line)
            return
        (part,), n = drill.setup_place(line)
        if part in ("setup", "harness"):
            self.report((part,), message, n)
            return
        given = f"{message} (line {n} of the code the pack gives before the drill's setup)"
        if drill.uses:
            self.report(("uses",), given)
        else:
            self.rep.add(("setup",), given)

    def where(self, seed: int) -> str:
        return where(self.ref.drill, seed)

    def time_limit(self) -> float:
        return time_limit(self.ref.drill)

    def results(self, plans: Sequence[Plan]) -> list[RunResult | None]:
        return run_batch(plans, self.sandbox)

    def grades(
        self,
        text: str,
        stop_on: str,
        *,
        alone_first: bool = False,
        seeds: Sequence[int] | None = None,
    ) -> list[Graded]:
        """``text`` (rendered per seed) graded on ``seeds`` through the engine, batched, until
        ``stop_on`` (``fail`` or ``pass``) is met. With ``alone_first`` the first seed runs
        alone under the drill's own time limit, so a reference that loops is stopped as a
        learner's answer would be; the other seeds share one call."""
        drill = self.ref.drill
        answers = [(render(text, draw_params(drill.params, s)), s) for s in seeds or self.seeds]
        split = 1 if alone_first else 0
        out: list[Graded] = []
        for batch in (answers[:split], answers[split:]):
            if not batch:
                continue
            graded = grade_batch(self.ref, batch, self.sandbox, stop_on)
            for (answer, seed), (p, result, g) in zip(batch, graded, strict=False):
                out.append((seed, answer, p, result, g))
                finished = result is None or str(result.status) == "ok"
                if g.correct == (stop_on == "pass") or not finished:
                    return out
            if len(graded) < len(batch):
                return out
        return out


def _pool(sandbox: Sandbox | SandboxPool) -> tuple[SandboxPool, bool]:
    """A pool around ``sandbox`` (the default runtime's), and whether it was made here."""
    from tutor.sandbox.pool import SandboxPool

    if isinstance(sandbox, SandboxPool):
        return sandbox, False
    return SandboxPool(given={None: sandbox}), True


def _sandbox_for(
    full_id: str, drill: Drill, i: int, pool: SandboxPool, rep: _Reporter, skipped: list[str] | None
) -> Sandbox | None:
    """The sandbox of the drill's runtime, or None when that runtime cannot be had (the drill is
    skipped with the reason, or reported where the runtime is required)."""
    from tutor.sandbox.runtimes import RuntimeNotBuilt, RuntimeNotFound, required

    try:
        return pool.get(drill.runtime)
    except RuntimeNotBuilt as exc:
        if required(exc.name):
            flag = f"TUTOR_REQUIRE_{exc.name.upper()}=1"
            rep.add(("drills", i, "runtime"), f"{exc.needs} ({flag})")
        elif skipped is not None:
            skipped.append(f"{full_id} {exc.needs}")
    except RuntimeNotFound as exc:
        rep.add(("drills", i, "runtime"), str(exc))
    return None


def run_checks(
    pack: Pack,
    locator: Locator,
    sandbox: Sandbox | SandboxPool,
    skipped: list[str] | None = None,
    only: Collection[str] | None = None,
) -> list[Problem]:
    """Run every drill of a loaded pack in the sandbox of its runtime; the problems found.

    ``sandbox`` is the default runtime's sandbox or a ``SandboxPool``; drills skipped because
    their runtime is not built are named in ``skipped``; with ``only``, just the drills whose
    ids are in it run."""
    rep = _Reporter(pack, locator)
    pool, made = _pool(sandbox)
    try:
        for i, drill in enumerate(pack.drills):
            kind = kind_of(drill)
            if not kind.checks(drill) or (only is not None and drill.id not in only):
                continue
            full_id = pack.full_id(drill)
            box = _sandbox_for(full_id, drill, i, pool, rep, skipped)
            if box is not None:
                kind.check(DrillCheck(_Ref(full_id, drill), i, box, rep))
    finally:
        if made:
            pool.close()
    return rep.problems


def check_pack(
    path: str | os.PathLike[str],
    sandbox: Sandbox | SandboxPool,
    skipped: list[str] | None = None,
) -> list[Problem]:
    """Schema and sandbox checks of one pack file (``[]`` when it passes)."""
    try:
        pack, locator = load_pack_located(path)
    except PackError as exc:
        return exc.problems
    return run_checks(pack, locator, sandbox, skipped)


def runtime_torch(sandbox: Sandbox) -> str | None:
    """The torch version of the sandbox's runtime (None if it cannot be told)."""
    result = sandbox.run("print(torch.__version__)")
    return result.stdout.strip() or None if str(result.status) == "ok" else None


def skip_reason(pack: Pack, version: str | None) -> str | None:
    """Why a pack written for other torch versions is not run (None: run it)."""
    if not pack.torch or version is None:
        return None
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    try:
        ok = Version(version.split("+")[0]) in SpecifierSet(pack.torch)
    except (InvalidSpecifier, InvalidVersion):
        return None
    return None if ok else f"pack {pack.pack} is for torch {pack.torch}; the runtime has {version}"


def check_packs(
    packs: Iterable[Pack], sandbox: Sandbox | SandboxPool, skipped: list[str] | None = None
) -> list[Problem]:
    """The sandbox stage for packs that already passed the schema stage.

    Packs whose ``torch`` specifier excludes the default runtime's torch are not run, nor are
    drills whose runtime is not built; the reasons are appended to ``skipped``.
    """
    packs = list(packs)
    pool, made = _pool(sandbox)
    problems: list[Problem] = []
    try:
        version = runtime_torch(pool.get()) if any(p.torch for p in packs) else None
        for pack in packs:
            reason = skip_reason(pack, version)
            if reason:
                if skipped is not None:
                    skipped.append(reason)
                continue
            if pack.source is not None:
                problems += check_pack(pack.source, pool, skipped)
    finally:
        if made:
            pool.close()
    return problems


def run_stage(packs: list[Pack], sandbox: Sandbox | SandboxPool) -> tuple[list[Problem], list[str]]:
    """The sandbox stage as ``tutor pack check`` runs it: the problems found, and why packs
    were skipped (the command prints both)."""
    skipped: list[str] = []
    problems = check_packs(packs, sandbox, skipped)
    return problems, skipped
