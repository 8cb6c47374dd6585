"""The facts COURSE.md lists for chapter 6, checked twice.

Each fact must (1) appear in the recorded output of a lesson snippet, and (2) come out of that
same snippet again when real torch runs it now in the sandbox. The drills that count graphs and
compiles are checked the same way: their setup and ask run in the sandbox with the params of
the lesson's examples, and the count Dynamo produces is the lesson's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "lessons" / "06-guarded-capture.md"
PACK = "06-guards.yaml"

# (what COURSE.md says, the text torch prints for it in the lesson)
FACTS: list[tuple[str, str]] = [
    ("a custom backend receives the GraphModule", "backend got a graph: ['placeholder L_x_'"),
    ("later calls reuse the graph (one capture)", "call 2 matches eager: True"),
    ("guards on Python values", "EQUALS_MATCH L['k'] == 2"),
    ("guards on dtype and shape", "torch.float32, device=None, requires_grad=False, size=[4, 3]"),
    ("a failed guard recompiles: a changed Python value", "graphs so far 2  0/0: k == 2"),
    ("a changed value becomes dynamic", "f(x4, 4): graphs so far 2"),
    ("a failed guard recompiles: a new shape", "size mismatch at index 0. expected 4, actual 5"),
    ("a changed size becomes dynamic", "f(x6, 5): graphs so far 3"),
    ("explain: graph count and breaks", "graphs: 3  breaks: 2"),
    ("break reason for print", "Failed to trace builtin operator"),
    ("break reason for .item()", "Unsupported Tensor.item() call"),
    ("data-dependent if breaks the graph", "graphs: 2  breaks: 1"),
    ("torch.where keeps it one graph", "fixed: graphs: 1  breaks: 0"),
    ("fullgraph=True turns a break into an error", "torch._dynamo.exc.Unsupported"),
    ("the first call pays compilation", "first call slower than a steady call: True"),
    ("a dynamic size is guarded 2 <= size", "new guard: 2 <= L['x'].size()[0]"),
    ("size 1 fails the dynamic guard: its own graph", "size 1: graphs 3 | first failed: 0/1: 2 <="),
    ("size 0 gets a graph too", "size 0: graphs 4 | first failed: 0/1: 2 <= x.size()[0]"),
    ("a seen size of 1 reuses its graph", "x.size()[0]\nsize 1: graphs 4"),
    ("the default: static, dynamic, size 1", "dynamic=None (default)  3 graphs"),
    ("mark_dynamic skips the static graph", "mark_dynamic(x, 0)      2 graphs"),
    ("dynamic=True skips the static graph", "dynamic=True            2 graphs"),
    ("dynamic=False compiles every size", "dynamic=False           5 graphs"),
    ("closures of one def share the recompile limit", "five closures of one def: 3 graphs"),
    ("the limit warns", "warned: True"),
    ("each def has its own budget", "two defs, five dtypes each: 6 graphs"),
    (
        "eval() fails the training guard",
        "eval                   graphs 2  0/0: fn._modules['1'].training",
    ),
    ("both modes stay cached", "train again            graphs 2"),
    (
        "no_grad is guarded global state",
        "no_grad                graphs 3  0/0: GLOBAL_STATE changed: grad_mode",
    ),
    ("new weight values compile nothing", "weight values changed  graphs 3"),
    ("a new Parameter compiles nothing", "new Parameter          graphs 3"),
    ("torch.compile(model)'s keys start with _orig_mod.", "OptimizedModule ['_orig_mod.0.weight'"),
    ("a disabled helper is one break", "step_with_disabled_log: graphs 2, breaks 1"),
    ("what reduce-overhead turns on", "reduce-overhead             {'triton.cudagraphs': True}"),
    (
        "what max-autotune turns on",
        "max-autotune                {'max_autotune': True, 'triton.cudagraphs': True",
    ),
]


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_course_fact_recorded_and_reproduced(course, fact, needle):
    course.check_fact(LESSON, fact, needle)


def test_lesson_records_the_torch_version(course):
    course.check_recorded(LESSON)


# (drill, params that reproduce a lesson example, the truth the lesson shows)
DRILL_CASES = [
    ("graphs-around-breaks", {"first": 'print("a")', "second": "z = y.max().item()"}, "3"),
    ("break-or-guard", {"cond": "x.sum() > 0", "flag": True, "n": 5}, "1"),
    ("break-or-guard", {"cond": "x.shape[0] > 3", "flag": True, "n": 5}, "0"),
    ("compiles-for-sizes", {"sizes": "[4, 5, 6, 7]"}, "2"),
    ("compiles-for-scalars", {"ks": "[2, 3, 4]"}, "2"),
    ("zero-one-sizes", {"sizes": "[4, 5, 1]"}, "3"),
    ("zero-one-sizes", {"sizes": "[2, 3, 0, 1]"}, "4"),
    ("dynamic-setting-graphs", {"dyn": "True", "sizes": "[4, 5, 6]"}, "1"),
    ("dynamic-setting-graphs", {"dyn": "False", "sizes": "[4, 5, 6]"}, "3"),
    (
        "module-mode-switches",
        {
            "model": "nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))",
            "steps": "train, eval, train, eval",
        },
        "2",
    ),
    (
        "module-mode-switches",
        {"model": "nn.Sequential(nn.Linear(4, 4), nn.ReLU())", "steps": "train, eval, train, eval"},
        "1",
    ),
]


@pytest.mark.parametrize(("drill_id", "params", "truth"), DRILL_CASES)
def test_drill_truth_matches_the_lesson(course, drill_id, params, truth):
    assert course.truth(course.drill(PACK, drill_id), params) == truth
