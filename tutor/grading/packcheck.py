"""The sandbox stage of ``tutor pack check``: run every drill of a pack and prove it gradable.

For each drill, on seeds 0..4: a predict drill's ``setup`` and ``ask`` must run (a NameError,
SyntaxError or ImportError, or any error in ``setup``, is an authoring error reported at the
file line where it happened) and give a truth a learner can type; a code/fix drill's reference
must pass its own check, and its starter and every ``wrong`` answer must fail it. Problems are
``Problem(file, line, col, field, message)`` naming the field, e.g. ``drills[2].wrong[0]``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.content.loader import load_pack_located
from tutor.content.models import CodeDrill, Drill, Pack, PredictDrill
from tutor.content.positions import Locator, dotted
from tutor.content.problems import PackError, Problem
from tutor.grading import codecheck
from tutor.grading.engine import grade, judge, plan
from tutor.grading.variants import draw_params

if TYPE_CHECKING:
    from tutor.sandbox import Sandbox

SEEDS = range(5)


@dataclass
class _Ref:
    full_id: str
    drill: Drill


class _Reporter:
    """Makes Problems for one pack file, mapping code lines to file lines."""

    def __init__(self, pack: Pack, locator: Locator) -> None:
        self.file = locator.file
        self.locator = locator
        self.lines = (
            Path(pack.source).read_text(encoding="utf-8").splitlines() if pack.source else []
        )
        self.problems: list[Problem] = []

    def add(self, path: tuple, message: str, code_line: int | None = None) -> None:
        line, col = self.locator.at(path)
        if code_line:
            text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            block = text[col - 1 : col] in ("|", ">")
            if block:
                line, col = line + code_line, 1
            elif code_line > 1:
                line, col = line + code_line - 1, 1
        self.problems.append(Problem(self.file, line, col, dotted(path), message))


def _params_note(drill: Drill, seed: int) -> str:
    params = draw_params(drill.params, seed)
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"seed {seed}" + (f" ({shown})" if shown else "")


def _check_predict(ref: _Ref, i: int, sandbox: Sandbox, rep: _Reporter) -> None:
    drill = ref.drill
    for seed in SEEDS:
        p = plan(ref, "", seed)
        result = sandbox.call(p.target, timeout=p.timeout, memory_mb=p.memory_mb, **p.kwargs)
        where = _params_note(drill, seed)
        if str(result.status) != "ok" or not isinstance(result.value, dict):
            rep.add(("drills", i, "ask"), f"setup/ask did not run on {where}: "
                    f"{result.status} {result.reason}".rstrip())  # fmt: skip
            return
        value = result.value
        if value["outcome"] == "authoring":
            err = value["error"]
            msg = f"{err['type']}: {err['message']} on {where}"
            if value["field"] == "ask" or err["type"] in (
                "NameError",
                "SyntaxError",
                "ImportError",
            ):
                msg += " (an authoring error, not a truth)"
            rep.add(("drills", i, value["field"]), msg, err.get("line"))
            return
        truth = value["value"]
        if truth["type"] == "other":
            rep.add(("drills", i, "ask"), f"ask returns a {truth['pytype']}, which a learner "
                    "cannot type; ask for a shape, dtype, number or small tensor instead")  # fmt: skip
            return
        if truth["type"] == "tensor" and truth.get("values") is None:
            rep.add(("drills", i, "ask"), f"ask returns a tensor of {truth['numel']} elements, "
                    "too many to type; ask for a smaller one or for its shape")  # fmt: skip
            return


def _reference_stop(value: Any, i: int, where: str, rep: _Reporter) -> bool:
    """Report a setup/reference error from the probe's data (at its file line); True if any."""
    stage = value.get("stage") if isinstance(value, dict) else None
    if stage not in ("setup_error", "reference_error"):
        return False
    err = value["error"]
    field = "setup" if stage == "setup_error" else "reference"
    msg = f"{err['type']}: {err['message']} on {where}"
    if "trial" in err:
        inputs = codecheck.inputs_text(err.get("inputs", {}))
        msg += f", trial {err['trial']} with {inputs}"
    rep.add(("drills", i, field), msg, err.get("line"))
    return True


def _check_code(ref: _Ref, i: int, sandbox: Sandbox, rep: _Reporter) -> None:
    drill: CodeDrill = ref.drill  # type: ignore[assignment]
    static = codecheck.judge_static(drill, drill.reference)
    if static is not None:
        rep.add(("drills", i, "reference"), f"the reference itself fails: {static[0].feedback}")
        return
    for seed in SEEDS:
        params = draw_params(drill.params, seed)
        answer = codecheck.render(drill.reference, params)
        where = _params_note(drill, seed)
        try:
            codecheck.code_kwargs(drill, params, answer, seed)
        except codecheck.AuthoringError as exc:
            rep.add(("drills", i, *exc.field.split(".")), str(exc))
            return
        p = plan(ref, answer, seed)
        result = sandbox.call(p.target, timeout=p.timeout, memory_mb=p.memory_mb, **p.kwargs)
        if str(result.status) == "ok" and _reference_stop(result.value, i, where, rep):
            return
        g = judge(ref, answer, seed, result)
        if not g.correct:
            rep.add(("drills", i, "reference"), "the reference does not pass its own check on "
                    f"{where}: {g.feedback}")  # fmt: skip
            return
    answers: list[tuple[tuple, str, str]] = [(("drills", i, "starter"), drill.starter, "starter")]
    answers += [(("drills", i, "wrong", j), w, f"wrong[{j}]") for j, w in enumerate(drill.wrong)]
    for path, text, name in answers:
        for seed in SEEDS:
            answer = codecheck.render(text, draw_params(drill.params, seed))
            g = grade(ref, answer, seed, sandbox)
            if g.correct:
                rep.add(path, f"the {name} answer passes the check on {_params_note(drill, seed)}; "
                        "it must fail (make the check stricter: more trials, wider params, "
                        "an assert)" if name != "starter" else
                        f"the starter already passes the check on {_params_note(drill, seed)}; "
                        "the learner would have nothing to do")  # fmt: skip
                break
            if g.status == "invalid" and name != "starter":
                rep.add(path, f"the {name} answer fails only because it cannot be read: "
                        f"{g.feedback} (it should fail the check itself)")  # fmt: skip
                break
            if g.status == "authoring":
                break


def run_checks(pack: Pack, locator: Locator, sandbox: Sandbox) -> list[Problem]:
    """Run every drill of a loaded pack in the sandbox; the problems found."""
    rep = _Reporter(pack, locator)
    for i, drill in enumerate(pack.drills):
        ref = _Ref(pack.full_id(drill), drill)
        if isinstance(drill, PredictDrill):
            _check_predict(ref, i, sandbox, rep)
        elif isinstance(drill, CodeDrill):
            _check_code(ref, i, sandbox, rep)
    return rep.problems


def check_pack(path: str | os.PathLike[str], sandbox: Sandbox) -> list[Problem]:
    """Schema and sandbox checks of one pack file (``[]`` when it passes)."""
    try:
        pack, locator = load_pack_located(path)
    except PackError as exc:
        return exc.problems
    return run_checks(pack, locator, sandbox)


def check_packs(packs: Iterable[Pack], sandbox: Sandbox) -> list[Problem]:
    """The sandbox stage for packs that already passed the schema stage."""
    problems: list[Problem] = []
    for pack in packs:
        if pack.source is None:
            continue
        try:
            loaded, locator = load_pack_located(pack.source)
        except PackError as exc:
            problems += exc.problems
            continue
        problems += run_checks(loaded, locator, sandbox)
    return problems


def run_stage(packs: list[Pack], ctx: Any = None) -> list[Problem]:
    """The sandbox stage as ``tutor pack check`` runs it (the runtime from the CLI settings)."""
    from tutor.sandbox import Sandbox
    from tutor.settings import Settings

    settings = ctx.find_object(Settings) if ctx is not None else None
    with Sandbox(settings.runtime if settings else None) as sandbox:
        return check_packs(packs, sandbox)
