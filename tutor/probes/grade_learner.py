"""Runtime side: the learner's process of a code grading. It runs the learner's code, sends
DATA to the judge, and answers the judge's requests; it never learns the verdict.

1. ``setup`` then the learner's code, in a fresh namespace, under a :class:`ForbidTrace`;
2. with ``call``: the learner's function on every trial input (built from the trial specs, the
   same way the judge builds them), each result encoded as wire data (``grade_wire``);
3. one ``ran`` message (with the values of the names the ``assert`` stage reads), then requests from the judge's ``assert`` stage (``names``,
   ``getattr``, ``call``, ``getitem``, ``iter``, ``next``, ``len``), each run under the trace and
   answered with data or a handle, until the judge closes the channel. Every message carries
   the forbidden calls the trace has seen so far.

Whatever the learner's code does here (patch modules, forge messages, exit) changes only what
this process sends; the judge validates every message and decides alone.
"""

from __future__ import annotations

import socket
from typing import Any

from tutor.probes.forbid_trace import ForbidTrace
from tutor.probes.grade_inputs import fresh_copies, make_inputs
from tutor.probes.grade_link import Gone, recv, send
from tutor.probes.grade_run import describe_error, fresh_namespace, manual_seed, run_code
from tutor.probes.grade_wire import Handles, from_wire, to_wire


def _wire(value: Any, handles: Handles | None = None) -> dict[str, Any]:
    try:
        return to_wire(value, handles)
    except Exception as exc:  # noqa: BLE001 - too large, or a value that cannot be read
        return {"t": "unsupported", "what": f"a value that could not be sent ({exc})"}


def _ran(spec: dict[str, Any], ns: dict[str, Any], trace: ForbidTrace) -> dict[str, Any]:
    """Run setup, the answer and the trial calls; the ``ran`` message."""
    try:
        run_code(spec["setup"], ns, "<setup>")
    except BaseException as exc:  # noqa: BLE001
        return {"op": "ran", "stage": "setup_error", "error": describe_error(exc, "<setup>")}
    try:
        with trace:
            run_code(spec["answer"], ns, "<answer>")
    except BaseException as exc:  # noqa: BLE001 - sys.exit and friends are the answer's errors
        return {"op": "ran", "stage": "answer_error", "error": describe_error(exc, "<answer>")}
    outputs: list[dict[str, Any]] = []
    call = spec["call"]
    if call:
        fn = ns.get(call)
        if not callable(fn):
            msg = f"your code defines no function `{call}`"
            error = {"type": "NameError", "message": msg, "line": None}
            return {"op": "ran", "stage": "answer_error", "error": error}
        for trial in spec["trials"]:
            args = fresh_copies(make_inputs(trial))  # outside the trace: not the answer's calls
            manual_seed(int(trial["seed"]))
            try:
                with trace:
                    got = fn(*args)
            except BaseException as exc:  # noqa: BLE001
                outputs.append({"raised": describe_error(exc, "<answer>")})
                continue
            output: dict[str, Any] = {"value": _wire(got)}
            if spec.get("inputs_unchanged"):
                output["inputs"] = [_wire(a) for a in args]
            outputs.append(output)
    return {"op": "ran", "stage": "done", "outputs": outputs}


def _do(request: dict[str, Any], ns: dict[str, Any], handles: Handles) -> Any:
    op = request.get("op")
    if op == "names":
        return {n: ns[n] for n in request.get("names", []) if isinstance(n, str) and n in ns}
    obj = handles.get(int(request["h"]))

    def arg(d: dict[str, Any]) -> Any:
        return from_wire(d, lambda ref: handles.get(int(ref["id"])))

    if op == "getattr":
        return getattr(obj, str(request["name"]))
    if op == "call":
        args = [arg(a) for a in request.get("args", [])]
        kwargs = {str(k): arg(v) for k, v in request.get("kwargs", {}).items()}
        return obj(*args, **kwargs)
    if op == "getitem":
        return obj[arg(request["key"])]
    if op == "iter":
        return iter(obj)
    if op == "next":
        return next(obj)
    if op == "len":
        return len(obj)
    raise ValueError(f"unknown request {op!r}")


def _serve(sock: socket.socket, ns: dict[str, Any], trace: ForbidTrace, handles: Handles) -> None:
    while True:
        try:
            request = recv(sock)
        except Gone:
            return
        if not isinstance(request, dict):
            return
        if request.get("op") == "end":
            send(sock, {"op": "end", "forbidden": list(trace.used)})
            return
        reply: dict[str, Any] = {"op": "reply"}
        try:
            with trace:
                value = _do(request, ns, handles)
            reply["value"] = _wire(value, handles)
        except StopIteration:
            reply["stop"] = True
        except BaseException as exc:  # noqa: BLE001 - the learner's exception, as data
            reply["error"] = describe_error(exc, "<answer>")
        send(sock, {**reply, "forbidden": list(trace.used)})


def learner_side(spec: dict[str, Any]) -> Any:
    """The function :func:`grade_link.spawn` runs in the learner's process.

    ``spec`` holds ``setup``, ``answer``, ``call``, ``trials``, ``forbid``, ``allow``, ``seed``,
    ``inputs_unchanged`` and ``names`` (the names the ``assert`` stage reads, sent with the
    ``ran`` message to save a round trip) only: nothing else of the reference or the ``assert``
    code.
    """

    def side(sock: socket.socket) -> None:
        trace = ForbidTrace(spec["forbid"], spec.get("allow"))
        ns = fresh_namespace()
        handles = Handles()
        manual_seed(int(spec["seed"]))
        ran = _ran(spec, ns, trace)
        wanted = spec.get("names")
        if ran["stage"] == "done" and wanted is not None:  # the assert stage's, sent ahead
            ran["names"] = _wire({n: ns[n] for n in wanted if n in ns}, handles)
        send(sock, {**ran, "forbidden": list(trace.used)})
        _serve(sock, ns, trace, handles)

    return side
