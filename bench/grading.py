"""Grading latency: a full predict grading round trip next to the bare sandbox round trip.

Measured side by side in one run, on one warm sandbox, interleaved so machine load hits all
three alike:

- bare run:    ``Sandbox.run("pass")`` — the sandbox's own floor;
- bare call:   ``Sandbox.call`` of the predict probe with the drill's rendered setup/ask;
- full grade:  ``grading.engine.grade`` — plan, the same call, then parsing and judging the
  learner's answer (what the TUI and ``tutor drill run`` do).

Then code drills, graded end to end (plan, the one sandbox call, judge): ``outer`` (20 random
trials against the reference, forbid rules) and ``row-norm`` (an ``assert`` stage that calls the
learner's function), each with a right answer, and the split inside that call as the judge
measures it: forking the learner's process, the reference, waiting for the learner's results,
comparing, and the assert stage (with its requests to the learner's process).

Prints p50/p90 in ms and the grading overhead (full grade minus bare call). Target: full grade
p50 <= 25 ms warm on an idle machine.
"""

from __future__ import annotations

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
from tutor.sandbox import Sandbox  # noqa: E402

ROUNDS = 60
CODE_ROUNDS = 30
CODE_ANSWERS = {
    "outer": "def outer(a, b):\n    return a[:, None] * b[None, :]\n",
    "row-norm": "def normalize(x):\n    return x / x.sum(dim=1, keepdim=True)\n",
}


@dataclass
class Ref:
    full_id: str
    drill: Drill


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    pack = load_pack(ROOT / "tests/grading/packs/basics.yaml")
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
    code_times, split = code_drills(pack)
    pure = []
    for _ in range(ROUNDS * 10):  # the engine's own work: plan + judge on a recorded result
        t = time.perf_counter()
        judge(ref, plan(ref, answer, seed), answer, result)
        pure.append((time.perf_counter() - t) * 1000)
    print(f"predict grading round trip, {ROUNDS} rounds each, warm sandbox")
    for name, samples in times.items():
        print(
            f"  {name:<11} p50 {statistics.median(samples):7.1f} ms   p90 {pct(samples, 0.9):7.1f} ms"
        )
    print(f"  plan+judge  p50 {statistics.median(pure):7.3f} ms   (in the UI process, no sandbox)")
    overhead = statistics.median(times["full grade"]) - statistics.median(times["bare call"])
    ratio = statistics.median(times["full grade"]) / statistics.median(times["bare run"])
    print(f"  grading overhead over the bare call (p50): {overhead:+.1f} ms")
    print(f"  full grade / bare run (p50): {ratio:.2f}x")
    print(f"code drill grading, {CODE_ROUNDS} rounds each, warm sandbox")
    for name, samples in code_times.items():
        print(
            f"  {name:<11} p50 {statistics.median(samples):7.1f} ms   p90 {pct(samples, 0.9):7.1f} ms"
        )
    print("  inside the call, as the judge measures it (p50 ms):")
    for name, parts in split.items():
        shown = "  ".join(
            f"{k.removesuffix('_ms')} {statistics.median(v):.1f}" for k, v in parts.items()
        )
        print(f"  {name:<11} {shown}")


def code_drills(pack) -> tuple[dict[str, list[float]], dict[str, dict[str, list[float]]]]:
    """End-to-end grading times of right answers to the code drills in ``CODE_ANSWERS``."""
    refs = {d.id: Ref(pack.full_id(d), d) for d in pack.drills if d.id in CODE_ANSWERS}
    times: dict[str, list[float]] = {name: [] for name in CODE_ANSWERS}
    split: dict[str, dict[str, list[float]]] = {name: {} for name in CODE_ANSWERS}
    with Sandbox() as sandbox:
        for name, answer in CODE_ANSWERS.items():
            for seed in range(3):
                g = grade(refs[name], answer, seed, sandbox)
                assert g.status == "correct", g
        for i in range(CODE_ROUNDS):
            for name, answer in CODE_ANSWERS.items():
                t = time.perf_counter()
                p = plan(refs[name], answer, i)
                result = run_call(p, sandbox)
                g = judge(refs[name], p, answer, result)
                times[name].append((time.perf_counter() - t) * 1000)
                assert g.correct, g
                for key, ms in (result.value.get("timings") or {}).items():
                    split[name].setdefault(key, []).append(ms)
    return times, split


if __name__ == "__main__":
    main()
