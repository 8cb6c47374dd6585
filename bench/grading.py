"""Grading latency: a full predict grading round trip next to the bare sandbox round trip.

Measured side by side in one run, on one warm sandbox, interleaved so machine load hits all
three alike:

- bare run:    ``Sandbox.run("pass")`` — the sandbox's own floor;
- bare call:   ``Sandbox.call`` of the predict probe with the drill's rendered setup/ask;
- full grade:  ``grading.engine.grade`` — plan, the same call, then parsing and judging the
  learner's answer (what the TUI and ``tutor drill run`` do).

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
from tutor.grading.engine import grade, judge, plan  # noqa: E402
from tutor.sandbox import Sandbox  # noqa: E402

ROUNDS = 60


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
            sandbox.call(p.target, timeout=p.timeout, **p.kwargs)
            times["bare call"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            g = grade(ref, answer, seed, sandbox)
            times["full grade"].append((time.perf_counter() - t) * 1000)
        result = sandbox.call(p.target, timeout=p.timeout, **p.kwargs)
    assert g.status in ("correct", "wrong"), g
    pure = []
    for _ in range(ROUNDS * 10):  # the engine's own work: plan + judge on a recorded result
        t = time.perf_counter()
        plan(ref, answer, seed)
        judge(ref, answer, seed, result)
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


if __name__ == "__main__":
    main()
