"""``tutor pack check``'s part for code and fix drills: the reference passes its own check on
every seed (its first seed alone, under the drill's own time limit, so a reference that loops
is named as such), the starter and every ``wrong`` answer fail it, and no forged answer
(``tutor.grading.attacks``) passes it."""

from __future__ import annotations

from collections.abc import Sequence

from tutor.content.models import CodeDrill
from tutor.grading import attacks, codecheck
from tutor.grading.kinds.base import PackCheck, Where
from tutor.grading.variants import draw_params

#: how a drill that a forged answer passes is reported
ATTACK_SEVERITY = "error"
_RULES = ("forbidden", "forbidden_loop", "not_allowed", "max_lines")


def check_code_drill(ctx: PackCheck) -> None:
    """Every check of one code or fix drill, reported through ``ctx``."""
    drill = ctx.ref.drill
    assert isinstance(drill, CodeDrill)
    if drill.check.call and not drill.check.assert_ and not drill.wrong:
        ctx.report(("check",), "the only check is the comparison with the reference and the "
                   "drill lists no `wrong` answers, so a wrong reference would pass unnoticed: "
                   "add the mistakes a learner makes under `wrong`", severity="warning")  # fmt: skip
    if _reference(ctx, drill):
        _failing(ctx, drill)
        _attacks(ctx, drill)


def _reference(ctx: PackCheck, drill: CodeDrill) -> bool:
    for seed, _answer, p, result, g in ctx.grades(drill.reference, "fail", alone_first=True):
        where = ctx.where(seed)
        if p.decided is not None:
            what = "breaks the drill's own rules" if g.category in _RULES else "itself fails"
            field = "reference" if g.status != "authoring" else "check"
            ctx.report((field,), f"the reference {what}: {g.feedback}")
            return False
        if result is None or str(result.status) != "ok":
            if result is not None and str(result.status) == "timeout":
                ctx.report(("reference",), f"the reference did not finish within "
                           f"{ctx.time_limit():g} s, the drill's time limit, on {where}: does "
                           "it loop?")  # fmt: skip
            else:
                why = f"{result.status} {result.reason}".rstrip() if result else "no result"
                ctx.report(("reference",), f"the reference did not finish on {where}: {why}")
            return False
        value = result.value if isinstance(result.value, dict) else {}
        if value.get("stage") == "inputs_error":
            err = value["error"]
            if err.get("kind") == "case":  # cases come first: the trial is the case's index
                ctx.report(("check", "cases", err["trial"]), "this case cannot be made into "
                           f"the check's arguments: {err['message']}")  # fmt: skip
            else:
                ctx.report(("check", "args"), f"the inputs cannot be drawn on {where}, trial "
                           f"{err.get('trial')}: {err['message']}")  # fmt: skip
            return False
        if value.get("stage") in ("setup_error", "reference_error", "answer_error"):
            err = value["error"]
            field = "setup" if value["stage"] == "setup_error" else "reference"
            msg = f"{err['type']}: {err['message']} on {where}"
            if "trial" in err:
                msg += f", trial {err['trial']} with {codecheck.inputs_text(err['inputs'])}"
            ctx.report_code(field, msg, err.get("line"))
            return False
        if not g.correct:
            what = ("breaks the drill's own rules" if g.category in ("not_allowed", "forbidden")
                    else "does not pass its own check")  # fmt: skip
            ctx.report(("reference",), f"the reference {what} on {where}: {g.feedback}")
            return False
    return True


def _failing(ctx: PackCheck, drill: CodeDrill) -> None:
    answers: list[tuple[Where, str, str]] = [(("starter",), drill.starter, "starter")]
    for j, w in enumerate(drill.wrong_answers):
        answers.append((("wrong", j) if not w.feedback else ("wrong", j, "code"), w.code,
                        f"wrong[{j}]"))  # fmt: skip
    for path, text, name in answers:
        for seed, _answer, p, _result, g in ctx.grades(text, "pass"):
            if p.decided is not None:
                if g.status == "invalid" and name != "starter":
                    ctx.report(path, f"this wrong answer fails only because it cannot be read: "
                               f"{g.feedback} (it should fail the check itself)")  # fmt: skip
                break
            if g.correct:
                where = ctx.where(seed)
                if name == "starter":
                    msg = f"the starter already passes the check on {where}; nothing to do"
                else:
                    msg = (f"this wrong answer passes the check on {where}; it must fail "
                           "(make the check stricter: more trials, wider params, an assert)")  # fmt: skip
                ctx.report(path, msg)
                break


def _attacks(ctx: PackCheck, drill: CodeDrill) -> None:
    """The attack pass: forged answers that pass are reported."""
    params = draw_params(drill.params, attacks.MADE_FROM)
    kwargs = codecheck.code_kwargs(drill, params, "", attacks.MADE_FROM)
    made = ctx.sandbox.call(
        attacks.FORGE_TARGET,
        timeout=ctx.time_limit(),
        profile=drill.profile,
        **attacks.forge_kwargs(
            drill, kwargs["setup"], kwargs["reference"], kwargs["trials"], kwargs["assert_code"]
        ),
    )
    if str(made.status) != "ok" or not isinstance(made.value, dict):
        return  # the reference's own checks have already reported why it does not run

    def grader(text: str, seeds: Sequence[int]) -> list[int]:
        return [seed for seed, *_, g in ctx.grades(text, "pass", seeds=seeds) if g.correct]

    forged = {k: v for k, v in made.value.items() if isinstance(v, str)}
    for finding in attacks.attack(forged, grader):
        ctx.report(("check",), finding.message(ctx.where(finding.seed)), severity=ATTACK_SEVERITY)
