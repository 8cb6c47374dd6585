"""Grading latency, and what the judge's second process costs, measured side by side in ONE run.

Predict grading, on one warm sandbox, interleaved so machine load hits all three alike:

- bare run:    ``Sandbox.run("pass")`` — the sandbox's own floor;
- bare call:   ``Sandbox.call`` of the predict probe with the drill's rendered setup/ask;
- full grade:  ``grading.engine.grade`` — plan, the same call, then parsing and judging the
  learner's answer (what the TUI and ``tutor drill run`` do).

Code drills (``tests/grading/packs/basics.yaml``): ``outer`` (20 random trials against the
reference, forbid rules) and ``row-norm`` (an ``assert`` stage that calls the learner's
function), each with a right answer, graded end to end two ways, alternating round by round on
one warm sandbox with the same answers and seeds:

- one process (BASELINE, ``bench/grading_baseline.py``): the grading as it was before the judge,
  the learner's function called in the process that holds the reference's outputs; run as
  plain code in the sandbox (one fork of the runtime, like a product call). The product never
  grades this way;
- two processes: today's ``grade_code.check_code`` (the judge and the learner's process).

Prints p50/p90 in ms, the ratio of the p50s, the split inside the two-process call as the judge
measures it (the learner's process, the reference, waiting for the learner's results,
comparing, the assert stage) and the load average. Targets: predict full grade p50 <= 25 ms,
two processes <= 1.3x the one-process p50.
"""

from __future__ import annotations

import base64
import json
import marshal
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tutor.content.loader import load_pack  # noqa: E402
from tutor.content.models import Drill  # noqa: E402
from tutor.grading.engine import grade, judge, plan, run_call  # noqa: E402
from tutor.sandbox import RunResult, Sandbox  # noqa: E402

ROUNDS = 60
CODE_ROUNDS = 30
CODE_ANSWERS = {
    "outer": "def outer(a, b):\n    return a[:, None] * b[None, :]\n",
    "row-norm": "def normalize(x):\n    return x / x.sum(dim=1, keepdim=True)\n",
}
BASELINE = ROOT / "bench" / "grading_baseline.py"


@dataclass
class Ref:
    full_id: str
    drill: Drill


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(name: str, samples: list[float]) -> str:
    p50, p90 = statistics.median(samples), pct(samples, 0.9)
    return f"  {name:<24} p50 {p50:7.1f} ms   p90 {p90:7.1f} ms"


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    pack = load_pack(ROOT / "tests/grading/packs/basics.yaml")
    print(f"load average before: {load()}")
    predict(pack)
    code_drills(pack)
    print(f"load average after: {load()}")


def predict(pack) -> None:
    drill = next(d for d in pack.drills if d.id == "permute-strides")
    ref = Ref(pack.full_id(drill), drill)
    answer, seed = "(1, 12, 4)", 3
    p = plan(ref, answer, seed)
    times: dict[str, list[float]] = {"bare run": [], "bare call": [], "full grade": []}
    with Sandbox() as sandbox:
        for _ in range(5):  # warm up: runtime started, probe modules imported
            sandbox.run("pass")
            grade(ref, answer, seed, sandbox)
        for _ in range(ROUNDS):
            t = time.perf_counter()
            sandbox.run("pass")
            times["bare run"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            run_call(p, sandbox)
            times["bare call"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            g = grade(ref, answer, seed, sandbox)
            times["full grade"].append((time.perf_counter() - t) * 1000)
        result = run_call(p, sandbox)
    assert g.status in ("correct", "wrong"), g
    pure = []
    for _ in range(ROUNDS * 10):  # the engine's own work: plan + judge on a recorded result
        t = time.perf_counter()
        judge(ref, plan(ref, answer, seed), answer, result)
        pure.append((time.perf_counter() - t) * 1000)
    print(f"predict grading round trip, {ROUNDS} rounds each, warm sandbox")
    for name, samples in times.items():
        print(line(name, samples))
    print(f"  plan+judge  p50 {statistics.median(pure):7.3f} ms   (in the UI process, no sandbox)")
    overhead = statistics.median(times["full grade"]) - statistics.median(times["bare call"])
    print(f"  grading overhead over the bare call (p50): {overhead:+.1f} ms")


def baseline_code(kwargs: dict) -> str:
    """The sandbox code of one one-process grading: the baseline module, compiled here once
    (so the run does not pay for compiling it), then its check on ``kwargs``, printed."""
    module = compile(BASELINE.read_text(), str(BASELINE), "exec")
    blob = base64.b64encode(marshal.dumps(module)).decode()
    data = base64.b64encode(json.dumps(kwargs).encode()).decode()
    return (
        "import base64, json, marshal\n"
        f"exec(marshal.loads(base64.b64decode('{blob}')))\n"
        f"print(json.dumps(check_one_process(**json.loads(base64.b64decode('{data}')))))\n"
    )


def one_process(ref: Ref, answer: str, seed: int, sandbox: Sandbox):
    """Plan, the baseline's run, judge: the same steps as ``grade`` with the old layout."""
    p = plan(ref, answer, seed)
    run = sandbox.run(baseline_code(p.call.kwargs), timeout=p.call.timeout)
    value = json.loads(run.stdout) if run.ok else None
    result = RunResult(status=run.status, reason=run.reason, value=value)
    return judge(ref, p, answer, result)


def two_processes(ref: Ref, answer: str, seed: int, sandbox: Sandbox):
    p = plan(ref, answer, seed)
    result = run_call(p, sandbox)
    return judge(ref, p, answer, result), result


def code_drills(pack) -> None:
    """One process against two, alternating, for right answers to the drills in CODE_ANSWERS."""
    refs = {d.id: Ref(pack.full_id(d), d) for d in pack.drills if d.id in CODE_ANSWERS}
    times: dict[str, dict[str, list[float]]] = {n: {"one": [], "two": []} for n in CODE_ANSWERS}
    split: dict[str, dict[str, list[float]]] = {name: {} for name in CODE_ANSWERS}
    with Sandbox() as sandbox:
        for name, answer in CODE_ANSWERS.items():  # warm up, and both must say correct
            for seed in range(3):
                assert one_process(refs[name], answer, seed, sandbox).correct, name
                assert two_processes(refs[name], answer, seed, sandbox)[0].correct, name
        for i in range(CODE_ROUNDS):
            for name, answer in CODE_ANSWERS.items():
                order = ("one", "two") if i % 2 == 0 else ("two", "one")
                for how in order:
                    t = time.perf_counter()
                    if how == "one":
                        g = one_process(refs[name], answer, i, sandbox)
                    else:
                        g, result = two_processes(refs[name], answer, i, sandbox)
                    times[name][how].append((time.perf_counter() - t) * 1000)
                    assert g.correct, g
                for key, ms in (result.value.get("timings") or {}).items():
                    split[name].setdefault(key, []).append(ms)
    print(f"code drill grading, {CODE_ROUNDS} rounds each, interleaved, warm sandbox")
    for name, pair in times.items():
        print(line(f"{name}: one process", pair["one"]) + "   (baseline)")
        print(line(f"{name}: two processes", pair["two"]))
        ratio = statistics.median(pair["two"]) / statistics.median(pair["one"])
        print(f"  {name}: two / one (p50): {ratio:.2f}x")
    print("  inside the two-process call, as the judge measures it (p50 ms):")
    for name, parts in split.items():
        shown = "  ".join(
            f"{k.removesuffix('_ms')} {statistics.median(v):.1f}" for k, v in parts.items()
        )
        print(f"  {name:<11} {shown}")


if __name__ == "__main__":
    main()
