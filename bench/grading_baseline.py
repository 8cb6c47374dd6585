"""BASELINE FOR THE BENCHMARK ONLY: code-drill grading in ONE process, as it was before the judge.

The product never grades this way: here the learner's function is called in the process that
also holds the reference's outputs and decides the verdict, which is exactly what the judge
was built to stop. ``bench/grading.py`` runs this file as plain code in the sandbox (one fork
of the runtime, like a product call) to measure what the second process costs, with the same
reference, the same trials (``grade_inputs``), the same seeding, the same forbid trace and the
same comparison (``grade_compare``) as ``tutor.probes.grade_code.check_code``, and returns the
same fields. Never import it from the product.
"""

from __future__ import annotations

from typing import Any

from tutor.probes.forbid_trace import ForbidTrace
from tutor.probes.grade_code import _reference_outputs, _show, _wrong_outputs
from tutor.probes.grade_compare import diff, input_change, notes
from tutor.probes.grade_inputs import describe_inputs, fresh_copies, make_inputs, numel
from tutor.probes.grade_run import describe_error, fresh_namespace, manual_seed, run_code


def _trial(fn, spec, i, expected, trace, kw) -> tuple[dict | None, Any]:
    """The failure record of trial ``i`` (None when it agrees) and what the call gave."""
    inputs = make_inputs(spec)
    record: dict[str, Any] = {
        "trial": i, "seed": spec["seed"], "kind": spec.get("kind", "random"),
        "params": spec["params"], "inputs": describe_inputs(spec, inputs),
        "size": numel(inputs), "expected": _show(expected),
    }  # fmt: skip
    args = fresh_copies(inputs)
    manual_seed(int(spec["seed"]))
    try:
        with trace:
            got = fn(*args)
    except BaseException as exc:  # noqa: BLE001 - as the learner's process reports it
        record["raised"] = describe_error(exc, "<answer>")
        return record, ("raised", type(exc).__name__)
    d = diff(expected, got, kw["tolerance"], policy=kw.get("compare") or {})
    if d is None and kw.get("inputs_unchanged"):
        for name, before, after in zip(spec["args"], inputs, args, strict=True):
            message = input_change(name, before, after)
            if message:
                d = {"what": "input_changed", "message": message, "path": ""}
                break
    if d is None:
        return None, got
    record.update(diff=d, got=_show(got), notes=notes(expected, got))
    return record, got


def _matched(kw: dict[str, Any], outputs: list[Any]) -> int | None:
    for j, code in enumerate(kw.get("wrongs") or []):
        outs = _wrong_outputs(kw["setup"], code, kw["call"], kw["trials"], kw["seed"]) if code else None  # fmt: skip
        if outs is None:
            continue
        same = all(
            (mine == out) if isinstance(out, tuple) or isinstance(mine, tuple)
            else diff(out, mine, kw["tolerance"]) is None
            for out, mine in zip(outs, outputs, strict=True)
        )  # fmt: skip
        if same:
            return j
    return None


def check_one_process(**kw: Any) -> dict[str, Any]:
    """``grade_code.check_code``'s result, computed with the learner's code in this process."""
    out: dict[str, Any] = {
        "stage": "done", "error": None, "forbidden": [], "trials": 0, "passed": 0,
        "failure": None, "matched": None, "assert": None, "notes": [], "timings": {},
    }  # fmt: skip
    call, trials = kw["call"], kw["trials"]
    expected: list[Any] = []
    if call:
        expected, stop = _reference_outputs(kw["setup"], kw["reference"], call, trials, kw["seed"])
        if stop:
            return {**out, **stop}
    trace = ForbidTrace(kw["forbid"], kw.get("allow"))
    ns = fresh_namespace()
    manual_seed(int(kw["seed"]))
    try:
        run_code(kw["setup"], ns, "<setup>")
    except BaseException as exc:  # noqa: BLE001
        return {**out, "stage": "setup_error", "error": describe_error(exc, "<setup>")}
    try:
        with trace:
            run_code(kw["answer"], ns, "<answer>")
    except BaseException as exc:  # noqa: BLE001
        error = describe_error(exc, "<answer>")
        return {**out, "stage": "answer_error", "error": error, "forbidden": trace.used}
    if call:
        fn = ns.get(call)
        if not callable(fn):
            error = {"type": "NameError", "message": f"your code defines no function `{call}`"}
            return {**out, "stage": "answer_error", "error": {**error, "line": None}}
        failures, outputs = [], []
        for i, spec in enumerate(trials):
            record, got = _trial(fn, spec, i, expected[i], trace, kw)
            outputs.append(got)
            if record is not None:
                failures.append(record)
        out.update(trials=len(trials), passed=len(trials) - len(failures))
        if failures:
            out["failure"] = min(failures, key=lambda r: (r["size"], r["trial"]))
            out["matched"] = _matched(kw, outputs)
    if kw.get("assert_code"):
        manual_seed(int(kw["seed"]))
        try:  # in the learner's namespace, as it ran before the judge
            run_code(kw["assert_code"], ns, "<assert>")
            out["assert"] = {"ok": True}
        except AssertionError as exc:
            out["assert"] = {"ok": False, "type": "AssertionError", "message": str(exc)}
        except Exception as exc:  # noqa: BLE001
            out["assert"] = {"ok": False, **describe_error(exc, "<assert>")}
    out["forbidden"] = trace.used
    return out
