"""The facts COURSE.md lists for chapter 7, checked twice.

Each fact must (1) appear in the recorded output of a lesson snippet, and (2) come out of that
same snippet again when real torch runs it now in the sandbox. The drill that teaches the
decomposition of `linear` is checked the same way: its setup and ask run in the sandbox with the
params of the lesson's example, and the truth torch computes is the fact.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "lessons" / "07-graphs.md"
PACK = "07-graphs.yaml"

# (what COURSE.md says, the text torch prints for it in the lesson)
FACTS: list[tuple[str, str]] = [
    ("export gives an ATen graph", "call_function  linear     aten.linear.default"),
    ("the graph lifts parameters into placeholders", "placeholder    p_0_weight p_0_weight"),
    ("signature: parameters", "parameters:   ['0.weight', '0.bias', '1.weight', '1.bias']"),
    (
        "signature: buffers",
        "buffers:      ['1.running_mean', '1.running_var', '1.num_batches_tracked']",
    ),
    ("signature: user inputs", "user inputs:  ['input']"),
    ("signature: user outputs", "user outputs: ['batch_norm']"),
    ("exported histogram", "exported:   {'aten.linear.default': 2, 'aten.relu.default': 1}"),
    (
        "run_decompositions: linear -> permute + addmm",
        "decomposed: {'aten.permute.default': 2, 'aten.addmm.default': 2,",
    ),
    ("shapes are specialised", "AssertionError: Guard failed: input.size()[0] == 3"),
    ("a Dim accepts other batches", "64 (64, 2)"),
    ("export refuses data-dependent control flow", "GuardOnDataDependentSymNode"),
    ("symbolic_trace keeps modules whole", "call_module  0"),
    ("make_fx records the backward as ATen", "'aten.cos.default', 'aten.mul.Tensor'"),
    (
        "eager dispatches the same ops",
        "['aten.t.default', 'aten.addmm.default', 'aten.relu.default',",
    ),
    ("Dim.AUTO quietly keeps a pinned dimension", "Dim.AUTO on the features:   (3, 4)"),
    ("Dim.DYNAMIC refuses a pinned dimension", "Dim.DYNAMIC on the features: UserError"),
    ("an example batch of 1 is specialised", "Dim.AUTO, example batch 1:  (1, 4)"),
    ("torch.cond keeps both branches as subgraphs", "false_graph_0 ['aten.sub.Tensor']"),
    ("cond on a fixed shape is decided at export", "fixed shape:   ['aten.mul.Tensor']"),
    ("non-strict export runs forward on fake tensors", "strict=False: forward saw ['FakeTensor']"),
    ("strict export does not run forward", "strict=True: forward saw [], graph"),
    ("export's default is non-strict", "export's default: strict = False"),
    ("torch.export.load gives a GraphModule", "ExportedProgram whose module() is a GraphModule"),
    ("a loaded program keeps its guards", "batch 5: Guard failed: input.size()[0] == 3"),
    (
        "an FX pass rewrites the graph",
        "clamp_1 = torch.clamp(outer, min = -0.5, max = 0.5);  outer = None",
    ),
    (
        "a custom op survives decomposition",
        "decomposed: ['aten.sin.default', 'course.clip_scale.default', 'aten.add.Tensor']",
    ),
    ("opcheck catches a wrong fake", "Shapes torch.Size([4]) and torch.Size([5]) are not equal!"),
]


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_course_fact_recorded_and_reproduced(course, fact, needle):
    course.check_fact(LESSON, fact, needle)


def test_lesson_records_the_torch_version(course):
    course.check_recorded(LESSON)


def test_drill_truth_is_permute_then_addmm(course):
    drill = course.drill(PACK, "linear-decomposes-to")
    truth = course.truth(drill, {"bias": True, "shape": "4, 3"})
    assert truth == "['aten.permute.default', 'aten.addmm.default']"


def test_linear_without_a_bias_goes_through_matmul(course):
    """The drill's hint for `bias=False`: transpose first, then matmul's own reshaping."""
    drill = course.drill(PACK, "linear-decomposes-to")
    three_d = course.truth(drill, {"bias": False, "shape": "2, 4, 3"}, timeout=120.0)
    assert three_d == (
        "['aten.permute.default', 'aten.view.default', 'aten.mm.default', 'aten.view.default']"
    )
    one_d = course.truth(drill, {"bias": False, "shape": "3"}, timeout=120.0)
    assert "'aten.unsqueeze.default'" in one_d and "'aten.squeeze.dims'" in one_d
    assert "`unsqueeze`" in drill.hints[2], "the hint speaks to the bias-free 1-D path"


def test_an_example_batch_of_one_is_specialised_by_export(course):
    drill = course.drill(PACK, "dim-hint-call")
    auto = course.ask(drill, {"hint": "AUTO", "b": 1, "b2": 4})
    assert auto.exception is not None and auto.exception.type == "AssertionError"
    dynamic = course.ask(drill, {"hint": "DYNAMIC", "b": 1, "b2": 4})
    assert dynamic.exception is not None and dynamic.exception.type == "ValueError"
    assert course.truth(drill, {"hint": "AUTO", "b": 2, "b2": 6}) == "(6, 2)"


def test_a_cond_on_a_fixed_shape_leaves_one_branch(course):
    drill = course.drill(PACK, "cond-graph-ops")
    fixed = {"pred": "x.shape[0] > 4", "size": 3, "shapes": "None"}
    assert course.truth(drill, fixed, timeout=120.0) == "['aten.sub.Tensor']"
    dynamic = dict(fixed, shapes="{'x': {0: Dim('n')}}")
    assert "'cond'" in course.truth(drill, dynamic, timeout=120.0)
