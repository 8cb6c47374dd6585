"""Runtime side of code and fix drills: run the learner's code and judge it, returning data.

``check_code(...)`` runs, in one sandboxed call and in separate fresh namespaces:

1. with ``call``: ``setup`` + the reference, and the reference's output on every trial input;
2. ``setup`` + the learner's code under a :class:`ForbidTrace` (forbidden torch calls recorded);
3. with ``call``: the learner's function on the same trial inputs (fresh copies, the same
   ``torch.manual_seed`` before each call), each output compared strictly with the reference's;
4. with ``assert_code``: that code, in the learner's namespace.

It returns ``{"stage", "error", "forbidden", "trials", "passed", "failure", "assert", "notes"}``
where ``stage`` is ``done``, ``setup_error``, ``reference_error`` or ``answer_error`` (``error``
then says ``type``, ``message``, ``line`` and, for a trial, ``trial`` and ``inputs``), and
``failure`` is the smallest failing trial: its ``trial``, ``seed``, ``params``, ``inputs``, and
either ``raised`` (the exception the learner's function raised) or ``diff`` (what differs, from
``grade_compare.diff``) with the ``expected`` and ``got`` values as tagged data.
"""

from __future__ import annotations

from typing import Any

import torch

from tutor.probes.forbid_trace import ForbidTrace
from tutor.probes.grade_compare import diff, notes
from tutor.probes.grade_inputs import describe_inputs, fresh_copies, make_inputs, numel
from tutor.probes.grade_run import describe_error, fresh_namespace, run_code
from tutor.probes.values import encode, encode_tensor

_SHOWN = 64  # elements of an output shown in feedback


def _show(x: Any) -> dict[str, Any]:
    return encode_tensor(x, _SHOWN) if isinstance(x, torch.Tensor) else encode(x)


def _reference_outputs(
    setup: str, reference: str, call: str, trials: list[dict[str, Any]], seed: int
) -> tuple[list[Any], dict[str, Any] | None]:
    """The reference's output per trial, or the error that stopped it."""
    ns = fresh_namespace()
    torch.manual_seed(seed)
    for code, name, stage in ((setup, "<setup>", "setup_error"), (reference, "<reference>", "reference_error")):  # fmt: skip
        try:
            run_code(code, ns, name)
        except (Exception, SystemExit) as exc:
            return [], {"stage": stage, "error": describe_error(exc, name)}
    fn = ns.get(call)
    if not callable(fn):
        msg = f"the reference defines no function `{call}`"
        return [], {"stage": "reference_error", "error": {"type": "NameError", "message": msg}}
    outputs = []
    for i, spec in enumerate(trials):
        inputs = make_inputs(spec)
        torch.manual_seed(int(spec["seed"]))
        try:
            outputs.append(fn(*fresh_copies(inputs)))
        except Exception as exc:
            error = describe_error(exc, "<reference>")
            error.update(trial=i, params=spec["params"], inputs=describe_inputs(spec, inputs))
            return [], {"stage": "reference_error", "error": error}
    return outputs, None


def _trial(
    fn: Any, spec: dict, i: int, expected: Any, trace: ForbidTrace, tol: float
) -> dict | None:
    """None if the learner's function agrees with the reference on trial ``i``, else why not."""
    inputs = make_inputs(spec)
    record: dict[str, Any] = {
        "trial": i,
        "seed": spec["seed"],
        "params": spec["params"],
        "inputs": describe_inputs(spec, inputs),
        "size": numel(inputs),
        "expected": _show(expected),
    }
    torch.manual_seed(int(spec["seed"]))
    try:
        with trace:
            got = fn(*fresh_copies(inputs))
    except (Exception, SystemExit) as exc:
        record["raised"] = describe_error(exc, "<answer>")
        return record
    d = diff(expected, got, tol)
    if d is None:
        return None
    record.update(diff=d, got=_show(got), notes=notes(expected, got))
    return record


def check_code(
    *,
    setup: str,
    answer: str,
    reference: str,
    call: str | None,
    trials: list[dict[str, Any]],
    assert_code: str | None,
    tolerance: float,
    forbid: list[str],
    seed: int = 0,
) -> dict[str, Any]:
    """Grade ``answer`` against ``reference``/``assert_code``; the verdict as data.

    The global torch RNG is seeded with ``seed`` before each ``setup``, so an attempt that
    uses unseeded randomness (a training loop) replays exactly from its seed.
    """
    out: dict[str, Any] = {
        "stage": "done", "error": None, "forbidden": [], "trials": 0, "passed": 0,
        "failure": None, "assert": None, "notes": [],
    }  # fmt: skip
    expected: list[Any] = []
    if call:
        expected, stop = _reference_outputs(setup, reference, call, trials, seed)
        if stop:
            return {**out, **stop}
    trace = ForbidTrace(forbid)
    ns = fresh_namespace()
    torch.manual_seed(seed)
    try:
        run_code(setup, ns, "<setup>")
    except (Exception, SystemExit) as exc:
        return {**out, "stage": "setup_error", "error": describe_error(exc, "<setup>")}
    try:
        with trace:
            run_code(answer, ns, "<answer>")
    except (Exception, SystemExit) as exc:
        return {**out, "stage": "answer_error", "error": describe_error(exc, "<answer>"),
                "forbidden": trace.used}  # fmt: skip
    if call:
        fn = ns.get(call)
        if not callable(fn):
            msg = f"your code defines no function `{call}`"
            err = {"type": "NameError", "message": msg, "line": None}
            return {**out, "stage": "answer_error", "error": err, "forbidden": trace.used}
        failures = []
        for i, spec in enumerate(trials):
            record = _trial(fn, spec, i, expected[i], trace, tolerance)
            if record is not None:
                failures.append(record)
        out["trials"] = len(trials)
        out["passed"] = len(trials) - len(failures)
        if failures:
            out["failure"] = min(failures, key=lambda r: (r["size"], r["trial"]))
    if assert_code:
        try:
            run_code(assert_code, ns, "<assert>")
            out["assert"] = {"ok": True}
        except AssertionError as exc:
            out["assert"] = {"ok": False, "type": "AssertionError", "message": str(exc)}
        except (Exception, SystemExit) as exc:
            out["assert"] = {"ok": False, **describe_error(exc, "<assert>")}
    out["forbidden"] = trace.used
    return out


def check_code_seeds(runs: list[dict[str, Any]], stop_on: str) -> list[dict[str, Any]]:
    """``check_code`` for several seeds of one answer in one call (``tutor pack check``).

    ``stop_on`` is ``"fail"`` (checking a reference: stop at the first run that does not pass)
    or ``"pass"`` (checking a starter or wrong answer: stop at the first run that passes).
    """
    out = []
    for kwargs in runs:
        value = check_code(**kwargs)
        out.append(value)
        passed = (
            value["stage"] == "done"
            and not value["forbidden"]
            and not value["failure"]
            and (value["assert"] is None or value["assert"]["ok"])
        )
        if passed == (stop_on == "pass"):
            break
    return out
