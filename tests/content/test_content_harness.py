"""A drill's `harness`: code run before its `setup` that the learner is never shown (the check's
plumbing), and what the learner is shown of the built-in part ii drills: plain torch, never a
course helper."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from tutor.cli import main
from tutor.content.catalog import Catalog
from tutor.content.loader import parse_pack
from tutor.content.pack_lint import check_paths
from tutor.grading.engine import grade
from tutor.grading.shown import shown
from tutor.grading.variants import draw_params

PACK = """\
pack: harnessed
title: Harnessed
chapter: 8
setup: |
  SHARED = 1
drills:
  - id: doubled
    kind: predict
    prompt: What does `step(3)` return?
    params:
      k: {int: [3, 3]}
    harness: |
      def _twice(f, x):
          return [f(x), f(x)]
    setup: |
      def step(x):
          return x * {k}
      results = _twice(step, 2)
    ask: results
"""


def test_the_harness_runs_between_the_given_code_and_the_setup_and_is_not_shown(tmp_path):
    drill = parse_pack(PACK, "harnessed.yaml")[0].drills[0]
    code = drill.setup_code({"k": 3})
    assert code.index("SHARED") < code.index("def _twice") < code.index("return x * 3")
    assert drill.setup_place(1) == (("given",), 1)
    assert drill.setup_place(2) == (("harness",), 1)
    assert drill.setup_place(4) == (("setup",), 1)
    seen = shown(drill, {"k": 3}, 0)
    assert "_twice(step, 2)" in seen.setup and "def _twice" not in seen.setup
    path = tmp_path / "harnessed.yaml"
    path.write_text(PACK)
    out = CliRunner().invoke(main, ["drill", "show", "harnessed/doubled", "--pack", str(path)])
    assert out.exit_code == 0 and "results = _twice(step, 2)" in out.output
    assert "def _twice" not in out.output


def test_a_harness_that_does_not_compile_is_refused_at_its_line(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text(PACK.replace("return [f(x), f(x)]", "return [f(x), f(x)"))
    _packs, found = check_paths([path])
    assert [(p.field, p.line) for p in found] == [("drills[0].harness", 14)]


def test_the_harness_runs_in_the_sandbox_before_the_setup(sandbox, tmp_path):
    path = tmp_path / "harnessed.yaml"
    path.write_text(PACK)
    out = CliRunner().invoke(
        main,
        ["drill", "run", "harnessed/doubled", "--pack", str(path), "--answer", "[6, 6]"],
    )
    assert out.exit_code == 0 and "Correct" in out.output, out.output


# ---------------------------------------------------------------- the built-in part ii drills

#: what the learner could not read: the course's own modules (but chapter 12's digits, which
#: its lesson loads and explains), or a helper function or class of the check
HIDDEN = re.compile(r"\btutor\.(?!probes\.digits\b)|^\s*(?:def|class) _[A-Za-z]\w*", re.M)


def test_part_two_given_code_is_code_a_learner_can_read():
    shows = []
    for ref in Catalog.load(builtin=True).drills():
        if ref.chapter < 5:
            continue
        for seed in range(3):
            setup = shown(ref.drill, draw_params(ref.drill.params, seed), seed).setup
            found = HIDDEN.search(setup)
            if found:
                shows.append(f"{ref.full_id}: `{found.group(0).strip()}`")
                break
    assert shows == []


def test_an_answer_may_not_rebind_or_read_what_the_harness_binds(sandbox):
    ref = Catalog.load(builtin=True).drill("ranks-and-collectives/fix-averaged-gradients")
    fake = "def launch(fn, world, timeout=3):\n    return []\n\ndef sync_grads(grad):\n    return grad\n"
    g = grade(ref, fake, 1, sandbox)
    assert g.status == "wrong" and "`launch`" in g.feedback and "may not rebind" in g.feedback
    peek = "def sync_grads(grad):\n    dist.all_reduce(grad)\n    grad /= len(_grads)\n    return grad\n"
    g = grade(ref, peek, 1, sandbox)
    assert g.status == "wrong" and "`_grads`" in g.feedback
