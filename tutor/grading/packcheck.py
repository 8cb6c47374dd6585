"""The sandbox stage of ``tutor pack check``: run every drill of a pack and prove it gradable.

For each drill, on seeds 0..4: a predict drill's ``setup`` and ``ask`` must run (any error in
``setup``, or a NameError, SyntaxError or ImportError in ``ask``, is an authoring error reported
at the file line where it happened) and give a truth a learner can type, and its likely mistakes
must differ from the truth; an order drill checked by running must pass its check in its own
right orders; a code/fix drill's reference must pass its own check on every seed, and its
starter and every ``wrong`` answer must fail it on every seed. The seeds of one drill (or one
answer) share a sandbox call, so a whole pack costs a few calls per drill. Problems are ``Problem(file, line, col, field,
message)`` naming the field, e.g. ``drills[2].wrong[0]``.

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
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from tutor.content.loader import load_pack_located
from tutor.content.models import CodeDrill, Drill, OrderDrill, Pack, PredictDrill
from tutor.content.positions import Locator, dotted
from tutor.content.problems import PackError, Problem
from tutor.grading import attacks, codecheck, order_check
from tutor.grading.engine import CODE_TIMEOUT, grade_batch, plan, run_batch
from tutor.grading.grade import Grade, Plan
from tutor.grading.mistakes import truth_problems
from tutor.grading.variants import draw_params, render
from tutor.probes.data_grading import OrderData, PredictAuthoring, PredictData, PredictValue
from tutor.sandbox.result import RunResult, Status

if TYPE_CHECKING:
    from tutor.sandbox import Sandbox
    from tutor.sandbox.pool import SandboxPool

SEEDS = range(5)
#: how a drill that a forged answer passes is reported
ATTACK_SEVERITY = "warning"
_PREDICT_DATA: TypeAdapter[PredictValue | PredictAuthoring] = TypeAdapter(PredictData)
_ORDER_DATA: TypeAdapter[OrderData] = TypeAdapter(OrderData)
_D = TypeVar("_D", PredictDrill, CodeDrill)
#: where in a pack file a problem is: ("drills", 2, "wrong", 0)
Path_ = tuple[str | int, ...]
#: one seed's probe data, dumped to plain data, or the RunResult of a call that did not finish
Outcome = dict[str, Any] | RunResult


@dataclass(frozen=True)
class _Ref(Generic[_D]):
    full_id: str
    drill: _D


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


def _where(drill: Drill, seed: int) -> str:
    params = draw_params(drill.params, seed)
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"seed {seed}" + (f" ({shown})" if shown else "")


def _truths(ref: _Ref[PredictDrill], sandbox: Sandbox) -> list[dict[str, Any]] | RunResult:
    """The truth data of every seed, planned by the engine as a learner's grading plans it and
    run in one batched call (a RunResult when it did not finish or cannot be read)."""
    plans = [plan(ref, "", seed) for seed in SEEDS]
    values: list[dict[str, Any]] = []
    for result in run_batch(plans, sandbox):
        if result is None:
            break  # the batch stopped at an authoring error
        if str(result.status) != "ok":
            return result
        try:
            values.append(_PREDICT_DATA.validate_python(result.value).model_dump(by_alias=True))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            reason = f"the probe sent data that cannot be read ({where}: {first['msg']})"
            return RunResult(status=Status.sandbox_error, reason=reason)
    return values


def _placed(
    drill: Drill, i: int, field: str, msg: str, line: int | None
) -> tuple[Path_, str, int | None]:
    """Where an error of ``field`` at code line ``line`` is reported: a ``setup`` error in the
    code the pack gives (its ``setup``, a used drill's reference) at the drill's ``uses`` or the
    pack's ``setup``, with what it is."""
    if field != "setup" or not line:
        return ("drills", i, field), msg, line
    (part,), n = drill.setup_place(line)
    if part == "setup":
        return ("drills", i, "setup"), msg, n
    where = ("drills", i, "uses") if drill.uses else ("setup",)
    return where, f"{msg} (line {n} of the code the pack gives before the drill's setup)", None


def _check_predict(ref: _Ref[PredictDrill], i: int, sandbox: Sandbox, rep: _Reporter) -> None:
    drill = ref.drill
    values = _truths(ref, sandbox)
    if not isinstance(values, list):
        rep.add(("drills", i, "ask"), f"setup/ask did not finish: {values.status} {values.reason}")
        return
    warned: set[tuple[str | int, ...]] = set()
    for seed, value in zip(SEEDS, values, strict=False):
        if value["outcome"] == "authoring":
            err = value["error"]
            msg = f"{err['type']}: {err['message']} on {_where(drill, seed)}"
            if err["type"] in ("NameError", "SyntaxError", "ImportError"):
                msg += " (an authoring error, not a truth)"
            rep.add(*_placed(drill, i, value["field"], msg, err.get("line")))
            return
        truth = value["value"]
        typo = truth["type"] == "exception" and truth["name"] in ("AttributeError", "NameError")
        if typo and truth["name"] not in drill.prompt + drill.explain:
            rep.add(("drills", i, "ask"), f"ask raises {truth['name']}: {truth['message']} on "
                    f"{_where(drill, seed)}; a likely typo (if the error is the point, name "
                    f"{truth['name']} in the drill's explain)")  # fmt: skip
            return
        if truth["type"] == "other":
            rep.add(("drills", i, "ask"), f"ask returns a {truth['pytype']}, which a learner "
                    "cannot type; ask for a shape, dtype, number or small tensor instead")  # fmt: skip
            return
        if truth["type"] == "tensor" and truth.get("values") is None:
            rep.add(("drills", i, "ask"), f"ask returns a tensor of {truth['numel']} elements, "
                    "too many to type; ask for a smaller one or for its shape")  # fmt: skip
            return
        found = truth_problems(drill, value, _where(drill, seed))
        for path, message, severity, line in found:
            if severity == "warning" and path in warned:
                continue  # said once per drill
            warned.add(path)
            rep.add(("drills", i, *path) if path else ("drills", i, "ask"), message, line,
                    severity)  # fmt: skip
        if any(severity == "error" for _, _, severity, _ in found):
            return


def _check_order(drill: OrderDrill, i: int, sandbox: Sandbox, rep: _Reporter) -> None:
    """An order drill checked by running: its right orders pass, ``lines`` reversed does not."""
    tried = order_check.runs(drill, list(SEEDS))
    result = sandbox.call(
        "tutor.probes.grade_order:run_orders",
        timeout=CODE_TIMEOUT * len(tried),
        profile=drill.profile,
        runs=[r.kwargs for r in tried],
    )
    if str(result.status) != "ok" or not isinstance(result.value, list):
        rep.add(("drills", i, "run"), f"the drill's own orders did not finish: "
                f"{result.status} {result.reason}".rstrip())  # fmt: skip
        return
    try:
        outcomes = [_ORDER_DATA.validate_python(v).model_dump() for v in result.value]
    except ValidationError as exc:
        rep.add(("drills", i, "run"), f"the probe sent data that cannot be read: {exc}")
        return
    for path, message, severity, line in order_check.problems(drill, tried, outcomes):
        rep.add(("drills", i, *path), message, line, severity)


def time_limit(drill: Drill) -> float:
    """The seconds one grading of ``drill`` may run: the engine's limit, raised by the drill's
    limits profile."""
    from tutor.sandbox.limits import PROFILES

    return max(CODE_TIMEOUT, float(PROFILES[drill.profile].get("timeout", 0)))


#: one graded seed: (seed, the answer as rendered for it, its plan, its call's result, its grade)
Graded = tuple[int, str, Plan, "RunResult | None", Grade]


def _grades(
    ref: _Ref[CodeDrill],
    text: str,
    sandbox: Sandbox,
    stop_on: str,
    alone_first: bool = False,
    seeds: Sequence[int] = SEEDS,
) -> list[Graded]:
    """``text`` (rendered per seed) graded on ``seeds`` through the engine, batched, until
    ``stop_on`` (``fail`` or ``pass``) is met. With ``alone_first`` the first seed runs alone
    under the drill's own time limit, so a reference that loops is stopped as a learner's
    answer would be; the other seeds share one call."""
    drill = ref.drill
    answers = [(render(text, draw_params(drill.params, s)), s) for s in seeds]
    split = 1 if alone_first else 0
    out: list[Graded] = []
    for batch in (answers[:split], answers[split:]):
        if not batch:
            continue
        graded = grade_batch(ref, batch, sandbox, stop_on)
        for (answer, seed), (p, result, g) in zip(batch, graded, strict=False):
            out.append((seed, answer, p, result, g))
            if g.correct == (stop_on == "pass") or (result is not None and not _finished(result)):
                return out
        if len(graded) < len(batch):
            return out
    return out


def _finished(result: RunResult) -> bool:
    return str(result.status) == "ok"


def _check_reference(ref: _Ref[CodeDrill], i: int, sandbox: Sandbox, rep: _Reporter) -> bool:
    drill = ref.drill
    for seed, _answer, p, result, g in _grades(ref, drill.reference, sandbox, "fail", True):
        where = _where(drill, seed)
        if p.decided is not None:
            rules = g.category in ("forbidden", "forbidden_loop", "not_allowed", "max_lines")
            what = "breaks the drill's own rules" if rules else "itself fails"
            field = "reference" if g.status != "authoring" else "check"
            rep.add(("drills", i, field), f"the reference {what}: {g.feedback}")
            return False
        if result is None or not _finished(result):
            if result is not None and str(result.status) == "timeout":
                limit = time_limit(drill)
                rep.add(("drills", i, "reference"), f"the reference did not finish within "
                        f"{limit:g} s, the drill's time limit, on {where}: does it loop?")  # fmt: skip
            else:
                why = f"{result.status} {result.reason}".rstrip() if result else "no result"
                rep.add(
                    ("drills", i, "reference"), f"the reference did not finish on {where}: {why}"
                )
            return False
        value = result.value if isinstance(result.value, dict) else {}
        if value.get("stage") == "inputs_error":
            err = value["error"]
            if err.get("kind") == "case":  # cases come first: the trial is the case's index
                rep.add(("drills", i, "check", "cases", err["trial"]), "this case cannot be "
                        f"made into the check's arguments: {err['message']}")  # fmt: skip
            else:
                rep.add(("drills", i, "check", "args"), f"the inputs cannot be drawn on {where}, "
                        f"trial {err.get('trial')}: {err['message']}")  # fmt: skip
            return False
        if value.get("stage") in ("setup_error", "reference_error", "answer_error"):
            err = value["error"]
            field = "setup" if value["stage"] == "setup_error" else "reference"
            msg = f"{err['type']}: {err['message']} on {where}"
            if "trial" in err:
                msg += f", trial {err['trial']} with {codecheck.inputs_text(err['inputs'])}"
            rep.add(*_placed(drill, i, field, msg, err.get("line")))
            return False
        if not g.correct:
            what = ("breaks the drill's own rules" if g.category in ("not_allowed", "forbidden")
                    else "does not pass its own check")  # fmt: skip
            rep.add(("drills", i, "reference"), f"the reference {what} on {where}: {g.feedback}")
            return False
    return True


def _check_failing(ref: _Ref[CodeDrill], i: int, sandbox: Sandbox, rep: _Reporter) -> None:
    drill = ref.drill
    answers: list[tuple[Path_, str, str]] = [(("drills", i, "starter"), drill.starter, "starter")]
    for j, w in enumerate(drill.wrong_answers):
        path: Path_ = (
            ("drills", i, "wrong", j) if not w.feedback else ("drills", i, "wrong", j, "code")
        )
        answers.append((path, w.code, f"wrong[{j}]"))
    for path, text, name in answers:
        for seed, _answer, p, _result, g in _grades(ref, text, sandbox, "pass"):
            if p.decided is not None:
                if g.status == "invalid" and name != "starter":
                    rep.add(path, f"this wrong answer fails only because it cannot be read: "
                            f"{g.feedback} (it should fail the check itself)")  # fmt: skip
                break
            if g.correct:
                where = _where(drill, seed)
                if name == "starter":
                    msg = f"the starter already passes the check on {where}; nothing to do"
                else:
                    msg = (f"this wrong answer passes the check on {where}; it must fail "
                           "(make the check stricter: more trials, wider params, an assert)")  # fmt: skip
                rep.add(path, msg)
                break


def check_attacks(ref: _Ref[CodeDrill], i: int, sandbox: Sandbox, rep: _Reporter) -> None:
    """The attack pass (``grading.attacks``): forged answers that pass are reported."""
    drill = ref.drill
    params = draw_params(drill.params, attacks.MADE_FROM)
    kwargs = codecheck.code_kwargs(drill, params, "", attacks.MADE_FROM)
    made = sandbox.call(
        attacks.FORGE_TARGET,
        timeout=time_limit(drill),
        profile=drill.profile,
        **attacks.forge_kwargs(
            drill, kwargs["setup"], kwargs["reference"], kwargs["trials"], kwargs["assert_code"]
        ),
    )
    if str(made.status) != "ok" or not isinstance(made.value, dict):
        return  # the reference's own checks have already reported why it does not run

    def grader(text: str, seeds: Sequence[int]) -> list[int]:
        return [seed for seed, *_, g in _grades(ref, text, sandbox, "pass", seeds=seeds)
                if g.correct]  # fmt: skip

    forged = {k: v for k, v in made.value.items() if isinstance(v, str)}
    for finding in attacks.attack(forged, grader):
        rep.add(("drills", i, "check"), finding.message(_where(drill, finding.seed)),
                severity=ATTACK_SEVERITY)  # fmt: skip


def _check_code(ref: _Ref[CodeDrill], i: int, sandbox: Sandbox, rep: _Reporter) -> None:
    drill = ref.drill
    if drill.check.call and not drill.check.assert_ and not drill.wrong:
        rep.add(("drills", i, "check"), "the only check is the comparison with the reference "
                "and the drill lists no `wrong` answers, so a wrong reference would pass "
                "unnoticed: add the mistakes a learner makes under `wrong`", severity="warning")  # fmt: skip
    if _check_reference(ref, i, sandbox, rep):
        _check_failing(ref, i, sandbox, rep)
        check_attacks(ref, i, sandbox, rep)


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
            run = isinstance(drill, OrderDrill) and drill.run is not None
            if not isinstance(drill, (PredictDrill, CodeDrill)) and not run:
                continue
            if only is not None and drill.id not in only:
                continue
            full_id = pack.full_id(drill)
            box = _sandbox_for(full_id, drill, i, pool, rep, skipped)
            if box is None:
                continue
            if isinstance(drill, OrderDrill):
                _check_order(drill, i, box, rep)
            elif isinstance(drill, PredictDrill):
                _check_predict(_Ref(full_id, drill), i, box, rep)
            elif isinstance(drill, CodeDrill):
                _check_code(_Ref(full_id, drill), i, box, rep)
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
