"""Bulk grading benchmark: answers per second graded one at a time, a fresh `tutor drill run`
process per answer as a script does it, against the same answers through one
`tutor drill run --batch` (one warm sandbox), side by side in one run.

The answers come from the built-in packs: for each of the first drills of every kind (none
that needs another runtime or the compile limits), its reference for code and fix drills, the
correct order or choice, and a guess for predict drills (graded against torch all the same).
Each mode grades every answer with the same seed, and the verdicts of the two modes must agree.
The bulk run goes first and last, the one-at-a-time run between them, so a machine whose load
changes slows both alike. Prints answers per second for each, their ratio, what one command
costs (the median seconds of one `tutor drill run`, most of it starting a sandbox: torch's
import) and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tutor.content.catalog import Catalog, DrillRef
from tutor.content.models import ChoiceDrill, CodeDrill, OrderDrill, PredictDrill
from tutor.settings import Settings

TUTOR = Path(sys.executable).with_name("tutor")
KINDS = ("predict", "code", "fix", "order", "choice")


def answer_for(ref: DrillRef) -> str:
    """An answer a learner could give (right where the drill says what right is)."""
    drill = ref.drill
    if isinstance(drill, CodeDrill):  # fix drills are code drills too
        return drill.reference
    if isinstance(drill, OrderDrill):
        return "\n".join(drill.lines)
    if isinstance(drill, ChoiceDrill):
        return next(c.answer for c in drill.choices if c.correct)
    assert isinstance(drill, PredictDrill)
    return "(2, 3)"


def pick(count: int) -> list[dict[str, object]]:
    """``count`` answers, the kinds taken in turn."""
    catalog = Catalog.load(Settings())
    by_kind: dict[str, list[DrillRef]] = {kind: [] for kind in KINDS}
    for ref in catalog.drills():
        plain = ref.drill.runtime in (None, "default") and ref.drill.profile in (None, "default")
        if plain and ref.drill.kind in by_kind:
            by_kind[ref.drill.kind].append(ref)
    answers: list[dict[str, object]] = []
    while len(answers) < count:
        for kind in KINDS:
            if by_kind[kind] and len(answers) < count:
                ref = by_kind[kind].pop(0)
                answers.append({"id": ref.full_id, "seed": len(answers), "answer": answer_for(ref)})
    return answers


def run_tutor(args: list[str], stdin: str | None = None) -> str:
    done = subprocess.run(
        [str(TUTOR), *args], input=stdin, capture_output=True, text=True, timeout=900
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"tutor {' '.join(args[:3])} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def in_bulk(answers: list[dict[str, object]]) -> tuple[float, float, list[str]]:
    """Seconds to grade every answer with one `--batch`, seconds until its first verdict (the
    sandbox's start, mostly), and the statuses."""
    lines = "".join(json.dumps(a) + "\n" for a in answers)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(TUTOR), "drill", "run", "--batch", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(lines)
    proc.stdin.close()
    statuses, first = [], 0.0
    for line in proc.stdout:
        first = first or time.perf_counter() - start
        statuses.append(json.loads(line).get("status", "refused"))
    if proc.wait() not in (0, 1):
        raise SystemExit(f"tutor drill run --batch failed ({proc.returncode})")
    return time.perf_counter() - start, first, statuses


def one_at_a_time(answers: list[dict[str, object]]) -> tuple[list[float], list[str]]:
    """Seconds of each answer's own `tutor drill run`, and the statuses."""
    times, statuses = [], []
    for a in answers:
        start = time.perf_counter()
        out = run_tutor(
            [
                "drill",
                "run",
                str(a["id"]),
                "--answer",
                str(a["answer"]),
                "--seed",
                str(a["seed"]),
                "--json",
            ]  # fmt: skip
        )
        times.append(time.perf_counter() - start)
        statuses.append(json.loads(out).get("status", "refused"))
    return times, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=10, help="answers to grade (default 10)")
    args = parser.parse_args()
    answers = pick(args.answers)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as home:
        os.environ["TUTOR_HOME"] = home
        first, first_verdict, bulk_statuses = in_bulk(answers)
        singles, single_statuses = one_at_a_time(answers)
        last, last_verdict, again = in_bulk(answers)
    load_after = os.getloadavg()
    if not bulk_statuses == single_statuses == again:
        raise SystemExit(f"the modes disagree: {bulk_statuses} / {single_statuses} / {again}")
    n = len(answers)
    bulk = statistics.mean([first, last])
    kinds = ", ".join(f"{sum(a['id'] in ids for a in answers)} {k}" for k, ids in _ids().items())
    print(f"{n} answers ({kinds}); verdicts: {_count(bulk_statuses)}")
    print(
        f"  one at a time (a `tutor drill run` per answer): {sum(singles):6.1f} s, "
        f"{n / sum(singles):5.2f} answers/s; one command: median {statistics.median(singles):.1f} s "
        f"(min {min(singles):.1f}, max {max(singles):.1f})"
    )
    print(
        f"  in bulk (one `tutor drill run --batch`):        {bulk:6.1f} s, {n / bulk:5.2f} "
        f"answers/s (runs: {first:.1f} s, {last:.1f} s)"
    )
    start = statistics.mean([first_verdict, last_verdict])
    print(
        f"    of which the first verdict after {start:.1f} s (loading the catalog, starting the "
        f"sandbox), then {(n - 1) / (bulk - start):.1f} answers/s on the warm sandbox"
    )
    print(
        f"bulk / one at a time: {sum(singles) / bulk:.1f}x the answers per second; load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after, on {os.cpu_count()} cores"
    )


def _ids() -> dict[str, set[str]]:
    catalog = Catalog.load(Settings())
    ids: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for ref in catalog.drills():
        if ref.drill.kind in ids:
            ids[ref.drill.kind].add(ref.full_id)
    return {kind: found for kind, found in ids.items() if found}


def _count(statuses: list[str]) -> str:
    return ", ".join(f"{statuses.count(s)} {s}" for s in sorted(set(statuses)))


if __name__ == "__main__":
    main()
