"""Runtime side of code and fix drills: the judge. It never runs the learner's code.

``check_code(...)`` is one sandboxed call, in two processes:

- the learner's process (``grade_learner``, forked first, holding only stdout, stderr and one
  channel) runs ``setup`` + the learner's code under a ``ForbidTrace`` and, with ``call``, the
  learner's function on every trial input; it sends the results as data (``grade_wire``);
- this process, the judge, runs ``setup`` + the reference on the same trial inputs, compares
  each learner result (rebuilt from data) strictly with the reference's, then runs the
  ``assert`` stage here, over the learner's names rebuilt as data (its functions and modules
  stand in as ``grade_remote.Remote``: calling one asks the learner's process, and only data
  comes back).

It returns ``{"stage", "error", "forbidden", "trials", "passed", "failure", "assert", "notes",
"exit"}`` (``data_grading.CodeData``) where ``stage`` is ``done``, ``setup_error``, ``inputs_error`` (a trial's declared inputs cannot be drawn),
``reference_error``, ``answer_error`` (``error`` then says ``type``, ``message``, ``line`` and, for
a trial, ``trial`` and ``inputs``), ``answer_exit`` (the learner's process ended without sending
its results: ``exit`` says how) or ``learner_data`` (it sent something that is not valid data),
and ``failure`` is the smallest failing trial: its ``trial``, ``seed``, ``params``, ``inputs``,
and either ``raised`` (the exception the learner's function raised) or ``diff`` (what differs,
from ``grade_compare.diff``) with the ``expected`` and ``got`` values as tagged data.
"""

from __future__ import annotations

import re
import socket
import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn

import torch

from tutor.probes.data_grading import ExitInfo
from tutor.probes.grade_assert import GUARDS, assigned_public, guarded, judge_setup_data, read_names
from tutor.probes.grade_compare import diff, input_change, notes
from tutor.probes.grade_inputs import describe_inputs, fresh_copies, make_inputs, numel
from tutor.probes.grade_learner import learner_side
from tutor.probes.grade_link import Gone, in_child, serve_learner, spawn
from tutor.probes.grade_remote import BadData, Learner, LearnerRaised, own_module
from tutor.probes.grade_run import describe_error, fresh_namespace, manual_seed, run_code
from tutor.probes.grade_wrong_failure import matched_failure
from tutor.probes.reading_judge import judge_reading
from tutor.probes.values import encode, encode_tensor

_SHOWN = 64  # elements of an output shown in feedback


def _show(x: Any) -> dict[str, Any]:
    return encode_tensor(x, _SHOWN) if isinstance(x, torch.Tensor) else encode(x)


def _reference_outputs(
    setup: str, reference: str, call: str, trials: list[dict[str, Any]], seed: int
) -> tuple[list[Any], dict[str, Any] | None]:
    """The reference's output per trial, or the error that stopped it."""
    ns = fresh_namespace()
    manual_seed(seed)
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
        try:
            inputs = make_inputs(spec)
        except ValueError as exc:
            error = {"type": "ValueError", "message": str(exc), "line": None, "trial": i,
                     "kind": spec.get("kind", "random"), "params": spec["params"]}  # fmt: skip
            return [], {"stage": "inputs_error", "error": error}
        manual_seed(int(spec["seed"]))
        try:
            outputs.append(fn(*fresh_copies(inputs)))
        except Exception as exc:
            error = describe_error(exc, "<reference>")
            error.update(trial=i, params=spec["params"], inputs=describe_inputs(spec, inputs))
            return [], {"stage": "reference_error", "error": error}
    return outputs, None


def _changed(
    learner: Learner, spec: dict[str, Any], inputs: list[Any], output: dict[str, Any]
) -> dict[str, Any] | None:
    """What the learner's call changed in its inputs (``inputs_unchanged`` checks), as a diff."""
    after = output.get("inputs")
    if not isinstance(after, list) or len(after) != len(inputs):
        raise BadData("it did not send its inputs back after the call")
    for name, before, sent in zip(spec["args"], inputs, after, strict=True):
        message = input_change(name, before, learner.value(sent))
        if message:
            return {"what": "input_changed", "message": message, "path": ""}
    return None


def _wrong_outputs(
    setup: str, code: str, call: str, trials: list[dict[str, Any]], seed: int
) -> list[Any] | None:
    """A ``wrong`` answer's output per trial (``("raised", type)`` where it raised), or None
    when it does not even define ``call``. It is the drill's own code: the judge may run it."""
    ns = fresh_namespace()
    manual_seed(seed)
    try:
        run_code(setup, ns, "<setup>")
        run_code(code, ns, "<wrong>")
    except (Exception, SystemExit):
        return None
    fn = ns.get(call)
    if not callable(fn):
        return None
    outputs: list[Any] = []
    for spec in trials:
        inputs = make_inputs(spec)
        manual_seed(int(spec["seed"]))
        try:
            outputs.append(fn(*fresh_copies(inputs)))
        except Exception as exc:
            outputs.append(("raised", type(exc).__name__))
    return outputs


def _matched(learner: Learner, kw: dict[str, Any], raw: list[dict[str, Any]]) -> int | None:
    """The index of the first ``wrong`` answer whose outputs the learner's equal on every
    trial (the same exception type where it raised), or None."""
    for j, code in enumerate(kw.get("wrongs") or []):
        if not code:
            continue
        outs = _wrong_outputs(kw["setup"], code, kw["call"], kw["trials"], kw["seed"])
        if outs is None:
            continue
        for out, mine in zip(outs, raw, strict=True):
            if isinstance(out, tuple):
                if mine.get("raised", {}).get("type") != out[1]:
                    break
            elif "raised" in mine or diff(out, learner.value(mine["value"]), kw["tolerance"]):
                break
        else:
            return j
    return None


def _trial(
    learner: Learner,
    spec: dict[str, Any],
    i: int,
    expected: Any,
    output: dict[str, Any],
    tol: float,
    unchanged: bool = False,
    policy: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """None if the learner's output on trial ``i`` agrees with the reference's, else why not."""
    inputs = make_inputs(spec)
    record: dict[str, Any] = {
        "trial": i,
        "seed": spec["seed"],
        "kind": spec.get("kind", "random"),
        "params": spec["params"],
        "inputs": describe_inputs(spec, inputs),
        "size": numel(inputs),
        "expected": _show(expected),
    }
    if "raised" in output:
        record["raised"] = output["raised"]
        return record
    got = learner.value(output["value"])
    d = diff(expected, got, tol, policy=policy)
    if d is None and unchanged:
        d = _changed(learner, spec, inputs, output)
    if d is None:
        return None
    record.update(diff=d, got=_show(got), notes=notes(expected, got))
    return record


def _wanted(assert_code: str | None) -> list[str] | None:
    """The learner's names the ``assert`` stage reads (None: no stage, or it does not parse)."""
    if not assert_code:
        return None
    try:
        return sorted(read_names(assert_code))
    except (SyntaxError, ValueError, RecursionError):
        return None


class SetupFailed(Exception):
    """The drill's setup raised in the judge's own run (a broken drill)."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message"))
        self.error = error


def _assert(learner: Learner, kw: dict[str, Any], sent: Any) -> dict[str, Any]:
    """Run the ``assert`` stage here, in the judge (``grade_assert``): the judge's own copies of
    the public setup data it reads, the learner's names rebuilt as data for the rest (objects of
    its process stand in as ``Remote``s). ``sent``: the names as the ``ran`` message carried
    them (wire data), or None to ask for them now."""
    assert_code, seed = kw["assert_code"], kw["seed"]
    try:
        wanted = sorted(read_names(assert_code))
        code = guarded(assert_code, "<assert>")
    except SyntaxError as exc:
        return {"ok": False, **describe_error(exc, "<assert>")}
    if sent is not None:
        given = learner.value(sent)
    else:
        try:
            given = learner.request("names", names=wanted) if wanted else {}
        except LearnerRaised as exc:
            raise BadData(f"it could not give its names ({exc})") from None
    if not isinstance(given, dict) or not all(isinstance(k, str) for k in given):
        raise BadData("it answered the names with something else")
    try:
        own = judge_setup_data(kw["setup"], assigned_public(kw["setup"]) & set(wanted), seed)
    except Exception as exc:
        raise SetupFailed(describe_error(exc, "<setup>")) from None
    ns = fresh_namespace()
    ns.update({k: own_module(k, v) for k, v in given.items() if k in wanted})
    ns.update(own)
    ns.update(GUARDS)
    manual_seed(seed)
    try:
        exec(code, ns)
    except AssertionError as exc:
        return {"ok": False, "type": "AssertionError", "message": str(exc)}
    except (Gone, BadData):
        raise
    except Exception as exc:
        return {"ok": False, **_plain(describe_error(exc, "<assert>"))}
    return {"ok": True}


_NOT_REMOTE = re.compile(r"must be (\w+), not Remote")


def _plain(error: dict[str, Any]) -> dict[str, Any]:
    """An error of the assert stage in the learner's words: torch refusing a stand-in for an
    object of the learner's process ("must be Tensor, not Remote") means the learner's code
    gave an object where the check needs a tensor (or another value)."""
    found = _NOT_REMOTE.search(error.get("message", ""))
    if found:
        wanted = found.group(1).lower()
        wanted = "a tensor" if wanted == "tensor" else f"a {wanted}"
        error = {**error, "message": f"your code returned an object, not {wanted}"}
    return error


def _judge(learner: Learner, kw: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    call, trials = kw["call"], kw["trials"]
    clock = out["timings"]
    start = time.perf_counter()
    expected: list[Any] = []
    if call:
        expected, stop = _reference_outputs(kw["setup"], kw["reference"], call, trials, kw["seed"])
        if stop:
            return {**out, **stop}
    clock["reference_ms"] = _ms(start)
    ran, raw = learner.ran()
    clock["learner_ms"] = _ms(start)  # the learner's process ran meanwhile, from the fork
    if ran.stage != "done":
        stage = "setup_error" if ran.stage == "setup_error" else "answer_error"
        out |= {"stage": stage, "error": raw["error"], "forbidden": learner.end()}
        if stage == "answer_error":
            out["matched"] = matched_failure(kw, "answer", raw["error"])
        return out
    if call:
        if len(raw["outputs"]) != len(trials):
            raise BadData(f"it sent {len(raw['outputs'])} results for {len(trials)} trials")
        failures = []
        for i, spec in enumerate(trials):
            record = _trial(learner, spec, i, expected[i], raw["outputs"][i], kw["tolerance"],
                            kw["unchanged"], kw["compare"])  # fmt: skip
            if record is not None:
                failures.append(record)
        out["trials"] = len(trials)
        out["passed"] = len(trials) - len(failures)
        if failures:
            out["failure"] = min(failures, key=lambda r: (r["size"], r["trial"]))
            out["matched"] = _matched(learner, kw, raw["outputs"])
    clock["compare_ms"] = _ms(start) - clock["learner_ms"]
    if kw["assert_code"]:
        out["assert"] = _assert(learner, kw, raw.get("names"))
    out["forbidden"] = learner.end()
    if out["assert"] and not out["assert"]["ok"] and out.get("matched") is None:
        out["matched"] = matched_failure(kw, "assert", out["assert"])
    clock["assert_ms"] = _ms(start) - clock["learner_ms"] - clock["compare_ms"]
    return out


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


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
    secrets: list[str] | None = None,
    inputs_unchanged: bool = False,
    allow: list[str] | None = None,
    compare: dict[str, str] | None = None,
    wrongs: list[str] | None = None,
    peer: list[int] | None = None,
    rules: dict[str, Any] | None = None,
    read: bool = True,
    match: bool = True,
) -> dict[str, Any]:
    """Grade ``answer`` against ``reference``/``assert_code``; the verdict as data.

    The learner's code runs in its own process (forked first, before anything of the reference
    is computed; ``secrets``: more text to wipe from its memory). This process, the judge, runs
    the reference and the ``assert`` stage and compares, on data only.
    The global torch RNG is seeded with ``seed`` before each ``setup``, so an attempt that
    uses unseeded randomness (a training loop) replays exactly from its seed.
    With ``inputs_unchanged`` the learner's process sends each call's arguments back too, and a
    call that changed them (values, ``requires_grad``, a ``.grad``) fails its trial.
    ``allow`` (when not empty) is the only torch calls the answer may make; ``compare`` the
    drill's comparison policy; ``wrongs`` the drill's wrong answers with feedback (rendered; ""
    for one without): on a failure, ``matched`` names the first one the answer behaves like.
    ``peer`` (set by the runtime, never by a caller): the learner's process it forked beside
    this one for these arguments, as ``[pid, channel fd, status fd]``; else one is forked here.
    ``rules`` (``forbid``, ``allow``, ``max_lines``, as the drill writes them): the judge reads
    the answer first (``reading_judge``) and, when its reading refuses it, decides ``refused``
    without looking at anything the learner's process sends. ``read=False`` skips that reading
    (only for tests of the judge's other defences; a learner never sets the arguments).
    ``match=False`` skips naming the ``wrong`` answer a failure is like where no trial tells
    (``tutor pack check`` proving that a wrong answer fails needs no feedback for it).
    """
    out: dict[str, Any] = {
        "stage": "done", "error": None, "forbidden": [], "trials": 0, "passed": 0,
        "failure": None, "matched": None, "assert": None, "notes": [], "timings": {},
    }  # fmt: skip
    refusals = judge_reading(answer, setup, **_rules(rules, forbid, allow)) if read else []
    if refusals:  # refused by reading it: nothing the learner's process sends is looked at
        if peer is not None:
            Learner(peer[0], socket.socket(fileno=peer[1]), status_fd=peer[2]).release()
        return {**out, "stage": "refused", "refusals": refusals}
    forked = time.perf_counter()
    if peer is None:
        spec, hidden, keep = _learner_spec(
            {"setup": setup, "answer": answer, "reference": reference, "call": call,
             "trials": trials, "assert_code": assert_code, "forbid": forbid, "seed": seed,
             "secrets": secrets, "inputs_unchanged": inputs_unchanged, "allow": allow,
             "wrongs": wrongs}
        )  # fmt: skip
        learner = Learner(*spawn(learner_side(spec), hidden, keep))
    else:  # forked by the runtime beside this process, from the same arguments (learner_process)
        learner = Learner(peer[0], socket.socket(fileno=peer[1]), status_fd=peer[2])
    out["timings"]["fork_ms"] = _ms(forked)
    kw = {"setup": setup, "reference": reference, "call": call, "trials": trials,
          "assert_code": assert_code, "tolerance": tolerance, "seed": seed,
          "unchanged": inputs_unchanged, "compare": compare or {},
          "wrongs": (wrongs or []) if match else [], "started": forked}  # fmt: skip
    try:
        return _judge(learner, kw, out)
    except Gone:
        ended = learner.finish() or ExitInfo(code=0, note="it ended before sending its results")
        return {**out, "stage": "answer_exit", "exit": ended.model_dump()}
    except BadData as exc:
        error = {"type": "BadData", "message": str(exc), "line": None}
        learner.kill()
        return {**out, "stage": "learner_data", "error": error}
    except SetupFailed as exc:
        return {**out, "stage": "setup_error", "error": exc.error}
    finally:
        learner.release()


def _rules(
    rules: dict[str, Any] | None, forbid: list[str], allow: list[str] | None
) -> dict[str, Any]:
    """The reading's rules: as the drill writes them, or (a caller that sends none) the
    trace's lists."""
    if rules is None:
        return {"forbid": list(forbid), "allow": list(allow or []), "max_lines": None}
    return {"forbid": list(rules.get("forbid") or []), "allow": list(rules.get("allow") or []),
            "max_lines": rules.get("max_lines")}  # fmt: skip


def _learner_spec(kw: dict[str, Any]) -> tuple[dict[str, Any], list[str], list[str]]:
    """What the learner's process of ``check_code(**kw)`` runs (``learner_side``'s spec: nothing
    of the reference or the ``assert`` code but the names it reads), the texts to wipe from its
    memory, and the texts it keeps."""
    spec: dict[str, Any] = {
        k: kw.get(k) for k in ("setup", "answer", "call", "trials", "forbid", "seed")
    }
    spec |= {"allow": kw.get("allow") or [], "inputs_unchanged": bool(kw.get("inputs_unchanged"))}
    spec["names"] = _wanted(kw.get("assert_code"))
    hidden = [kw.get("reference") or "", kw.get("assert_code") or ""]
    hidden += [*(kw.get("wrongs") or []), *(kw.get("secrets") or [])]
    return spec, hidden, [spec["setup"], spec["answer"]]


def learner_process(kwargs: dict[str, Any]) -> Callable[[], NoReturn]:
    """The body of the learner's process the runtime forks beside the judge for one
    ``check_code`` call (its channel at ``grade_link.CHANNEL_FD``); the judge then gets
    ``peer``. Forking from the runtime costs a few ms less than forking from the judge,
    and the two processes start together."""
    spec, hidden, keep = _learner_spec(kwargs)
    return lambda: serve_learner(learner_side(spec), hidden, keep)


#: probes of this module that want a learner's process forked beside them, and its body
COMPANIONS = {"check_code": learner_process}


def _check_seed(kwargs: dict[str, Any], secrets: list[str]) -> dict[str, Any]:
    """``check_code`` for one seed. On the xla runtime each seed gets its own judge process:
    a judge that used the XLA device has its PJRT threads, and a learner forked from it for
    the next seed would hang on the device."""
    if "torch_xla" not in sys.modules:
        return check_code(**kwargs, secrets=secrets)
    try:
        value = in_child(lambda: check_code(**kwargs, secrets=secrets))
    except (Gone, ValueError) as exc:
        raise RuntimeError(f"the judge of seed {kwargs.get('seed')} ended early: {exc}") from None
    if not isinstance(value, dict):
        raise RuntimeError(f"the judge of seed {kwargs.get('seed')} sent {type(value).__name__}")
    return value


def check_code_seeds(runs: list[dict[str, Any]], stop_on: str) -> list[dict[str, Any]]:
    """``check_code`` for several seeds of one answer in one call (``tutor pack check``).

    ``stop_on`` is ``"fail"`` (checking a reference: stop at the first run that does not pass),
    ``"pass"`` (checking a starter or wrong answer: stop at the first run that passes) or
    ``"none"`` (run them all). An answer checked to fail (``"pass"``) is not matched against the
    drill's ``wrong`` answers where no trial tells (``match``): only whether it fails matters.
    """
    out = []
    secrets = [r["reference"] for r in runs] + [r["assert_code"] or "" for r in runs]
    secrets += [w for r in runs for w in r.get("wrongs") or []]
    for kwargs in runs:
        value = _check_seed({**kwargs, "match": stop_on != "pass"}, secrets)
        out.append(value)
        passed = (
            value["stage"] == "done"
            and not value["forbidden"]
            and not value["failure"]
            and (value["assert"] is None or value["assert"]["ok"])
        )
        if stop_on in ("fail", "pass") and passed == (stop_on == "pass"):
            break
    return out
