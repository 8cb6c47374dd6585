"""`tutor pack check --trials N --seed S`: many variants of every drill, the failing seed and the
time of each trial; `regression_seeds` pins seeds that once failed; slow drills are named."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from tutor.cli import main
from tutor.content.loader import load_pack
from tutor.grading.sweep import _Ref, sweep_drill

# n=40 is drawn from seed 5 and from no seed in 0..4 (the plain check's seeds)
assert [random.Random(s).randint(1, 50) for s in range(6)].index(40) == 5
# n=7 is drawn first from seed 19
SIZES = [6, 9, 12, 15, 18, 7]
assert [random.Random(s).choice(SIZES) for s in range(20)].index(7) == 19

PACK = """\
pack: sweep-demo
title: Sweep demo
chapter: 1
drills:
  - id: halves
    kind: code
    prompt: Write `halves(x)` returning `x / 2` for a tensor of {n} elements.
    params:
      n: {int: [1, 50]}
    starter: |
      def halves(x):
          ...
    reference: |
      def halves(x):
          return x.view({n} // 8, 8).flatten() / 2
    check:
      call: halves
      args:
        x: {tensor: [n]}
    wrong:
      - |
        def halves(x):
            return x * 2
  - id: rows-of-three
    kind: predict
    prompt: What is `torch.arange({n}).view(-1, 3).shape`?
    params:
      n: {choice: [6, 9, 12, 15, 18, 7]}
    ask: torch.arange({n}).view(-1, 3).shape
  - id: prints
    kind: order
    prompt: Put them in order.
    params:
      a: {int: [1, 3]}
      b: {int: [1, 3]}
    lines:
      - print({a})
      - print({b})
"""


def check(tmp_path, text, *args):
    file = tmp_path / "demo.yaml"
    file.write_text(text)
    result = CliRunner().invoke(main, ["pack", "check", str(file), "--json", *args])
    return result.exit_code, json.loads(result.stdout)


def test_the_sweep_finds_each_kinds_failing_seed_and_times_every_trial(tmp_path):
    # a reference that only works when n is a multiple of 8 (seed 0 draws 25: it fails at once)
    code, data = check(tmp_path, PACK.replace("{n} // 8, 8", "-1, 1"), "--trials", "20")
    assert code == 1
    sweep = {s["drill"]: s for s in data["sweep"]}
    assert sweep["sweep-demo/rows-of-three"]["failing_seed"] == 19
    assert sweep["sweep-demo/prints"]["failing_seed"] == 0  # a=2, b=2: two lines alike
    assert sweep["sweep-demo/prints"]["min_ms"] is None  # an order drill needs no sandbox
    halves = sweep["sweep-demo/halves"]
    assert halves["failing_seed"] is None and halves["trials"] == 20
    assert 0 < halves["min_ms"] <= halves["median_ms"] <= halves["max_ms"]
    assert halves["budget_ms"] == 5000 and not halves["slow"]
    problems = {p["field"]: p["message"] for p in data["problems"]}
    assert set(problems) == {"drills[1].ask", "drills[2].lines[1]"}
    assert problems["drills[1].ask"].startswith("ask raises RuntimeError on seed 19 (n=7)")
    assert "lines 0 and 1 read the same on seed 0 (a=2, b=2)" in problems["drills[2].lines[1]"]


def test_a_seed_that_failed_once_is_pinned_by_regression_seeds(tmp_path):
    buggy = PACK.replace("{n} // 8, 8", "-1, 1").replace(
        "x.view(-1, 1).flatten() / 2", "x / 2 if x.numel() != 40 else x.view(3, -1)"
    )
    buggy = buggy.replace("      - print({b})\n", "      - print({b} + 10)\n")
    code, data = check(tmp_path, buggy, "--trials", "6", "--seed", "0")
    assert (code, data["sweep"][0]["failing_seed"]) == (1, 5)
    assert "the reference fails on seed 5 (n=40)" in data["problems"][0]["message"]
    assert check(tmp_path, buggy)[0] == 0  # the plain check's seeds 0..4 miss both
    pinned = buggy.replace("  - id: halves\n", "  - id: halves\n    regression_seeds: [5]\n")
    pinned = pinned.replace("chapter: 1\n", "chapter: 1\nregression_seeds: [19]\n", 1)
    code, data = check(tmp_path, pinned)  # now it tries seed 5 (halves) and 19 (every drill)
    assert code == 1 and "sweep" not in data
    problems = {p["field"]: p["message"] for p in data["problems"]}
    assert set(problems) == {"drills[0].reference", "drills[1].ask"}
    assert "the reference fails on seed 5 (n=40)" in problems["drills[0].reference"]
    assert "ask raises RuntimeError on seed 19 (n=7)" in problems["drills[1].ask"]


def test_a_drill_over_its_budget_is_named_slow(tmp_path):
    text = PACK.replace("      - print({b})\n", "      - print({b} + 10)\n")
    text = text.replace("ask: torch.arange({n}).view(-1, 3).shape", "ask: torch.arange({n}).shape")
    code, data = check(
        tmp_path, text.replace("{n} // 8, 8", "-1"), "--trials", "2", "--budget", "0.001"
    )
    assert code == 1
    slow = {p["field"]: p["message"] for p in data["problems"]}
    assert set(slow) == {"drills[0]", "drills[1]"}  # the order drill runs nothing
    assert all(m.startswith("slow: a trial took") and "(--budget)" in m for m in slow.values())
    assert [s["slow"] for s in data["sweep"]] == [True, True, False]


def test_a_wrong_answer_must_fail_on_at_least_one_trial(sandbox, tmp_path):
    file = tmp_path / "demo.yaml"
    file.write_text(PACK.replace("return x * 2", "return x.view({n} // 8, 8).flatten() * 0.5"))
    pack = load_pack(file)
    drill = pack.drills[0]
    ok = [s for s in range(40) if random.Random(s).randint(1, 50) % 8 == 0][:3]
    stats, found = sweep_drill(_Ref(pack.full_id(drill), drill), ok, sandbox)
    assert stats.failing_seed is None and len(stats.times_ms) == 3
    message = "wrong[0] passes on every one of 3 trials; it must fail on at least one"
    assert (("wrong", 0), message) in found  # (the first trial also started the sandbox)


def test_trials_need_the_sandbox(tmp_path):
    code, data = check(tmp_path, PACK, "--no-run", "--trials", "3")
    assert code == 2 and "drop --no-run" in data["error"]
