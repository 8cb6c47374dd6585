"""Code and fix drills: plan the sandbox call of ``tutor.probes.grade_code`` and judge its data.

The learner's code is first read here (torch-free, ``tutor.probes.reading``): a syntax error
makes the answer invalid, and whatever the reading refuses (a rule of the drill, or what no
answer may do to what its check relies on) fails it, both without the sandbox. Otherwise the
probe runs the learner's code and the reference on the check's trials (shapes drawn per trial
from ``check.params``; tensor values from ``torch.Generator().manual_seed(seed * 1000 + trial)``)
and returns per-trial verdicts, the smallest failing input and what differs.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from tutor.content.models import CodeDrill, Params
from tutor.grading.grade import Judgement
from tutor.grading.hints import exception_category
from tutor.grading.trials import AuthoringError, trial_specs
from tutor.grading.truth import show
from tutor.grading.variants import draw_params, render, render_prose
from tutor.probes.reading import KEYWORDS, read_answer
from tutor.probes.reading_rules import normalize

__all__ = [
    "SEEDS_TARGET",
    "TARGET",
    "AuthoringError",
    "code_kwargs",
    "judge_code",
    "judge_static",
    "on_variant",
    "passed",
    "trials",
    "refusal_judgement",
    "static_refusals",
]

TARGET = "tutor.probes.grade_code:check_code"
SEEDS_TARGET = "tutor.probes.grade_code:check_code_seeds"


def trials(drill: CodeDrill, params: Params, seed: int) -> list[dict[str, Any]]:
    """The trial specs of the drill's check for this seed (see ``tutor.grading.trials``)."""
    return trial_specs(drill.check, params, seed)


def static_refusals(drill: CodeDrill, code: str, params: Params | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """What the torch-free reading refuses in ``code``, as plain data (the judge's reading
    returns the same, ``tutor.probes.reading_judge``). ``params``: the attempt's drawn params
    (default: those of seed 0; only the setup's names matter here). SyntaxError if it does not
    parse."""
    setup = drill.setup_code(params if params is not None else draw_params(drill.params, 0))
    refusals = read_answer(code, setup=setup, forbid=list(drill.forbid), allow=list(drill.allow),
                           max_lines=drill.max_lines)  # fmt: skip
    return [asdict(r) for r in refusals]


def code_kwargs(drill: CodeDrill, params: Params, code: str, seed: int) -> dict[str, Any]:
    """The keyword arguments of the ``check_code`` probe for one answer."""
    check = drill.check
    wrongs = [render(w.code, params) if w.feedback else "" for w in drill.wrong_answers]
    return {
        "setup": drill.setup_code(params),
        "answer": code,
        "reference": render(drill.reference, params),
        "call": check.call,
        "trials": trials(drill, params, seed),
        "assert_code": render(check.assert_, params) if check.assert_ else None,
        "tolerance": check.tolerance,
        "inputs_unchanged": check.inputs_unchanged,
        "forbid": [normalize(f) for f in drill.forbid if f not in KEYWORDS],
        "rules": {
            "forbid": list(drill.forbid),
            "allow": list(drill.allow),
            "max_lines": drill.max_lines,
        },  # fmt: skip
        "seed": seed,
        "allow": list(drill.allow),
        "compare": check.compare.model_dump(),
        "wrongs": wrongs if any(wrongs) else [],
    }


def judge_static(
    drill: CodeDrill, code: str, params: Params | None = None
) -> tuple[Judgement, list[str]] | None:
    """The verdict reached without running the code (syntax error, a refusal of the reading)."""
    try:
        refusals = static_refusals(drill, code, params)
    except SyntaxError as exc:
        where = f" on line {exc.lineno}" if exc.lineno else ""
        return Judgement("invalid", f"Your code has a syntax error{where}: {exc.msg}.", ""), []
    except (ValueError, RecursionError, MemoryError) as exc:
        return Judgement("invalid", f"Your code could not be read: {exc}.", ""), []
    return refusal_judgement(drill, refusals) if refusals else None


def _category(rule: str, rules: bool) -> str:
    """The verdict category of a refusal by its reading rule."""
    if rule == "dynamic":
        return "forbidden" if rules else "tampered"
    return {"tamper": "tampered", "loop": "forbidden_loop", "forbidden": "forbidden",
            "rules": "forbidden", "not_allowed": "not_allowed"}.get(rule, "max_lines")  # fmt: skip


_HEADERS = {
    "tampered": "Your code changes or reaches around what this drill's check relies on:",
    "forbidden": "Your code uses what this drill forbids:",
    "not_allowed": "Your code calls what this drill does not allow:",
}


def _line(r: dict[str, Any]) -> str:
    return f"line {r['line']}: `{r['written']}`: {r['why']}" if r["line"] else str(r["why"])


def refusal_judgement(
    drill: CodeDrill, refusals: list[dict[str, Any]]
) -> tuple[Judgement, list[str]]:
    """The verdict for the reading's refusals (plain data, from either reading; not empty):
    one line per refusal under a sentence per kind, the most serious kind's category, and
    the names refused."""
    syntax = [r for r in refusals if r["rule"] == "syntax"]
    if syntax:
        where = f" on line {syntax[0]['line']}" if syntax[0]["line"] else ""
        return Judgement("invalid", f"Your code has a syntax error{where}: {syntax[0]['why']}.", ""), []  # fmt: skip
    rules = drill.has_rules
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in refusals:
        category = _category(r["rule"], rules)
        key = "forbidden" if category == "forbidden_loop" else category
        groups.setdefault(key, []).append(r)
    blocks = []
    for key in ("tampered", "forbidden", "not_allowed", "max_lines"):
        if key not in groups:
            continue
        lines = [_line(r) for r in groups[key]]
        head = [_HEADERS[key]] if key in _HEADERS else []
        tail = [allowed_text(drill)] if key == "not_allowed" else []
        blocks.append("\n".join(head + lines + tail))
    first: str = next(
        k for k in ("tampered", "forbidden", "not_allowed", "max_lines") if k in groups
    )
    if first == "forbidden" and any(r["rule"] == "loop" for r in groups[first]):
        first = "forbidden_loop"
    names = [str(r["name"]) for r in refusals if r["name"] and r["rule"] != "max_lines"]
    return Judgement("wrong", "\n\n".join(blocks), "", first), list(dict.fromkeys(names))


def allowed_text(drill: CodeDrill) -> str:
    """The sentence that says what an answer to a drill with ``allow`` may call."""
    names = ", ".join(f"`{a}`" for a in drill.allow)
    return (f"It allows only {names}, plus Python operators, indexing, `.shape`, `.dtype`, "
            "`.device`, `.ndim`, the builtins `len`, `isinstance`, `print` and `slice`, and the "
            "functions its setup defines.")  # fmt: skip


def _rounded(values: Any) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_rounded(v) for v in values) + "]"
    return f"{values:.4g}" if isinstance(values, float) else repr(values)


def inputs_text(inputs: dict[str, Any]) -> str:
    parts = []
    for name, d in inputs.items():
        if "shape" in d:
            text = f"{name}: shape {tuple(d['shape'])}"
            if "values" in d:
                text += f" = {_rounded(d['values'])}"
            parts.append(text)
        else:
            parts.append(f"{name} = {d['value']!r}")
    return ", ".join(parts)


_WHAT = {"dtype": "dtype_promotion", "device": "device_mismatch", "requires_grad": "requires_grad",
         "values": "values", "value": "values", "type": "type", "length": "shape", "keys": "type",
         "input_changed": "input_changed"}  # fmt: skip


def _shape_category(d: dict[str, Any]) -> str:
    """``broadcasting`` when the two shapes line up under broadcasting but differ; a result of
    one element where many were expected is a plain ``shape`` mistake (a reduction too far,
    not a size-1 axis in the wrong place), whatever broadcasting would make of it."""
    a, b = d.get("got") or [], d.get("expected") or []
    fits = all(x == y or 1 in (x, y) for x, y in zip(a[::-1], b[::-1], strict=False))
    if not fits or a == b or (math.prod(a) == 1 and math.prod(b) > 1):
        return "shape"
    return "broadcasting"


def _failure(f: dict[str, Any], trials: int, passed: int, mix: str | None) -> Judgement:
    failed = trials - passed
    kind = {"case": " (one of the drill's own cases)", "edge": " (an edge size)"}
    inputs = f"inputs ({mix})" if mix else "random inputs"
    head = (
        f"Failed {failed} of {trials} {inputs}. "
        f"The smallest failing input{kind.get(f.get('kind', ''), '')} is {inputs_text(f['inputs'])}"
    )
    expected = show(f["expected"])
    raised = f.get("raised")
    if raised:
        line = f" at line {raised['line']}" if raised.get("line") else ""
        msg = f"{head}. Your function raised {raised['type']}{line}: {raised['message']}"
        return Judgement("wrong", msg, expected, exception_category(raised["message"]) or "raised")
    d = f["diff"]
    category = _shape_category(d) if d["what"] == "shape" else _WHAT.get(d["what"], "values")
    notes = "".join(f" (Also: {n}.)" for n in f.get("notes", []))
    what = d["message"][:1].upper() + d["message"][1:]
    return Judgement("wrong", f"{head}. {what}.{notes}", expected, category)


def _ended(exit: dict[str, Any]) -> Judgement:
    """The learner's process ended without sending its results: how, as a plain verdict."""
    sig, code = exit.get("signal"), exit.get("code")
    if sig == "SIGXCPU":
        return Judgement("timeout", "Your code ran out of CPU time.", "")
    if sig:
        return Judgement("crashed", f"Your code crashed its process ({sig}).", "")
    how = f"with status {code}" if code else "early"
    note = f" ({exit['note']})" if exit.get("note") else ""
    msg = (f"Your code ended its process {how}{note} before its results were checked: "
           "define what the drill asks and let it return; do not exit.")  # fmt: skip
    return Judgement("wrong", msg, "", "raised")


def _named(entry: str) -> str:
    """``"Tensor.sum (line 3)"`` -> ``"`Tensor.sum` (line 3)"`` (a traced call ``allow`` refuses)."""
    name, _, rest = entry.partition(" (")
    return f"`{name}`" + (f" (line {rest.removeprefix('line ')}" if rest.startswith("line") else "")


def judge_code(value: dict[str, Any], mix: str | None = None) -> tuple[Judgement, list[str]]:
    """Turn the judge's data into a verdict and the forbidden calls traced at run time.

    ``mix`` says what the trials were when not all random (``trials.trial_mix``)."""
    stage, err = value["stage"], value.get("error") or {}
    if stage == "answer_exit":
        return _ended(value.get("exit") or {}), []
    if stage == "learner_data":
        msg = (f"Your code's process sent something that is not its results: {err.get('message')}. "
               "Define what the drill asks; the grader reads nothing else.")  # fmt: skip
        return Judgement("wrong", msg, ""), []
    line = f" at line {err['line']}" if err.get("line") else ""
    if stage == "inputs_error":
        msg = f"The drill is broken: its check's inputs cannot be drawn: {err.get('message')}"
        return Judgement("authoring", msg, ""), []
    if stage in ("setup_error", "reference_error"):
        part = "setup" if stage == "setup_error" else "reference"
        msg = (
            f"The drill is broken: its {part} raised {err.get('type')}{line}: {err.get('message')}"
        )
        return Judgement("authoring", msg, ""), []
    forbidden = list(value.get("forbidden") or [])
    if stage == "answer_error":
        if err.get("type") in ("SyntaxError", "IndentationError", "TabError"):
            return Judgement(
                "invalid", f"Your code has a syntax error{line}: {err['message']}.", ""
            ), []
        msg = f"Your code raised {err.get('type')}{line}: {err.get('message')}"
        category: str | None = exception_category(err.get("message", "")) or "raised"
        if err.get("type") == "NameError" and not err.get("line"):
            msg, category = err["message"][0].upper() + err["message"][1:], None
        stop = "" if msg.rstrip().endswith((".", "!", "?")) else "."  # torch's own may end it
        return Judgement("wrong", msg.rstrip() + stop, "", category), forbidden
    refused = [n for n in forbidden if " (" not in n]
    if refused:
        names = ", ".join(f"`{n}`" for n in refused)
        return Judgement(
            "wrong", f"Your code calls {names}, which this drill forbids.", "", "forbidden"
        ), forbidden
    if forbidden:
        names = ", ".join(_named(n) for n in forbidden)
        return Judgement(
            "wrong", f"Your code calls {names}, which this drill does not allow.", "", "not_allowed"
        ), forbidden
    if value.get("failure"):
        return _failure(value["failure"], value["trials"], value["passed"], mix), forbidden
    check = value.get("assert")
    if check and not check["ok"]:
        kind = check.get("type", "AssertionError")
        text = check.get("message") or ""
        if kind == "AssertionError":
            msg = f"The check failed: {text or 'the assertion failed'}"
        else:
            msg = f"The check raised {kind}: {text}" if text else f"The check raised {kind}."
        return Judgement("wrong", msg, "", exception_category(text)), forbidden
    if value.get("trials"):
        return Judgement(
            "correct",
            f"Correct: agrees with the reference on {value['trials']} "
            + (f"inputs ({mix})." if mix else "random inputs."),
            "",
        ), forbidden
    return Judgement("correct", "Correct: the check passed.", ""), forbidden


def policy_text(drill: CodeDrill) -> str:
    """The drill's comparison policy in words ("" when everything is compared exactly)."""
    c = drill.check.compare
    parts = []
    if c.shape == "broadcast":
        parts.append("a result that broadcasts to the expected shape counts")
    if c.dtype == "numeric":
        parts.append("any numeric dtype counts")
    if c.order == "sorted":
        parts.append("the order of the values does not matter")
    elif c.order == "set":
        parts.append("only which values appear matters (order and repeats do not)")
    return ("Compared so that " + "; ".join(parts) + ".") if parts else ""


def with_drill(
    judgement: Judgement, value: dict[str, Any], drill: CodeDrill, params: Params
) -> Judgement:
    """The judgement with what only the drill knows: the allow list for a refused call, the
    feedback of the ``wrong`` answer the answer behaves like, the comparison policy."""
    extra = []
    if judgement.category == "not_allowed" and drill.allow and value.get("stage") == "done":
        extra.append(allowed_text(drill))
    matched = value.get("matched")
    mistake = False
    if judgement.status == "wrong" and isinstance(matched, int):
        answers = drill.wrong_answers
        if 0 <= matched < len(answers) and answers[matched].feedback:
            extra.insert(0, render_prose(answers[matched].feedback, params).strip())
            mistake = True
    if value.get("failure") or (judgement.correct and value.get("trials")):
        policy = policy_text(drill)
        if policy:
            extra.append(policy)
    if not extra:
        return judgement
    head = judgement.feedback.rstrip()
    head += "" if head.endswith((".", "!", "?", ":")) else "."  # an assert's message has no stop
    teach_first = mistake and _long(head)  # torch's long message after the line that teaches
    text = " ".join(extra) + "\n\n" + head if teach_first else " ".join([head, *extra])
    return Judgement(judgement.status, text, judgement.expected, judgement.category)


def _long(text: str) -> bool:
    """A message of several lines or of more than three lines' words at 80 columns."""
    return "\n" in text or len(text) > 240


def passed(value: dict[str, Any]) -> bool:
    """Whether one run's judge data is a pass (as ``check_code_seeds`` decides it)."""
    check = value.get("assert")
    return (value["stage"] == "done" and not value["forbidden"] and not value["failure"]
            and (check is None or check["ok"]))  # fmt: skip


def on_variant(judgement: Judgement, params: Params) -> Judgement:
    """A failure on another variant of the drill (``check.variants``), said so with its params."""
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    where = f" ({shown})" if shown else ""
    head = (f"Your code passes your own variant but not another one{where}, graded as written: "
            "it must not depend on your variant's values. ")  # fmt: skip
    return Judgement(judgement.status, head + judgement.feedback, judgement.expected,
                     judgement.category)  # fmt: skip


def failure_data(value: dict[str, Any]) -> dict[str, Any] | None:
    """The smallest failing trial as the UI and ``--json`` show it (None: no such trial), with
    ``matched``: the index of the drill's ``wrong`` answer the answer behaves like (or None)."""
    f = value.get("failure")
    if not f:
        return None
    d = f.get("diff") or {}
    out = {"trial": f["trial"], "kind": f.get("kind", ""), "inputs": inputs_text(f["inputs"]),
           "expected": show(f["expected"]), "got": show(f["got"]) if f.get("got") else None,
           "raised": f.get("raised"), "index": d.get("index"), "what": d.get("what"),
           "path": d.get("path") or "", "matched": value.get("matched")}  # fmt: skip
    return out
