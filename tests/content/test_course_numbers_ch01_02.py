"""Every fact and number COURSE.md lists for chapters 1 and 2 is (a) shown to the learner, in a
lesson's recorded output or as a drill's truth, and (b) produced by real torch at run time: the
snippet or the drill is run in the sandbox here and the number must be in what it prints/returns.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.settings import PROJECT_ROOT

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

LESSONS = PROJECT_ROOT / "lessons"
DRILLS = PROJECT_ROOT / "drills"

VIEW_ERROR = (
    "RuntimeError: view size is not compatible with input tensor's size and stride (at least one"
    " dimension spans across two contiguous subspaces). Use .reshape(...) instead."
)

# (fact, lesson file, a line of the snippet's code, strings its output must contain)
LESSON_FACTS = [
    ("shape, dtype, device", "01-tensors.md", "print(x.device)",
     ["torch.Size([2, 3])", "torch.float32", "cpu"]),
    ("dtype sizes 4/2/2/1", "01-tensors.md", "element_size={t.element_size()}",
     ["torch.float32   element_size=4", "torch.float16   element_size=2",
      "torch.bfloat16  element_size=2", "torch.int8      element_size=1"]),
    ("bfloat16 keeps float32's range, less precision", "01-tensors.md", "big = torch.tensor",
     ["float16 : inf", "bfloat16: 70144.0 1.0", "float16 max: 65504.0"]),
    ("row-major strides of (2, 3, 4)", "01-tensors.md", 'print("stride:", x.stride())',
     ["shape : (2, 3, 4)", "stride: (12, 4, 1)", "offset: 0"]),
    ("offset = storage_offset + 12a + 4b + c", "01-tensors.md", "position = x.storage_offset()",
     ["by the formula: 23", "x[1, 2, 3]    : 23"]),
    ("view/reshape/unsqueeze/squeeze are metadata only", "01-tensors.md", '"unsqueeze(0)"',
     ["view(2, 3)                shape=(2, 3)     stride=(3, 1)     same storage: True",
      "unsqueeze(0)              shape=(1, 6)     stride=(6, 1)     same storage: True",
      "same storage: True"]),
    ("permute(2, 0, 1): shape (4, 2, 3), strides (1, 12, 4), not contiguous", "01-tensors.md",
     "p = x.permute(2, 0, 1)\nprint(\"shape        :\"",
     ["shape        : (4, 2, 3)", "stride       : (1, 12, 4)", "contiguous   : False",
      "same storage : True"]),
    ("t() changes strides", "01-tensors.md", "m.t().stride()",
     ["m   : (2, 3) (3, 1) True", "m.t: (3, 2) (1, 3) False"]),
    ("the view-after-permute error", "01-tensors.md", "flat = p.view(-1)", [VIEW_ERROR]),
    ("merge rule: dims 1 and 2 of the permuted tensor merge", "01-tensors.md", "q = p.view(4, 6)",
     ["shape: (4, 6) stride: (1, 4)", "same storage: True"]),
    ("reshape may copy; contiguous() copies into a row-major block", "01-tensors.md",
     "r = p.reshape(-1)",
     ["reshape of permuted   -> shares storage: False",
      "contiguous()          -> shares storage: False stride: (6, 3, 1)",
      "reshape of contiguous -> shares storage: True"]),
    ("expand uses stride 0", "01-tensors.md", "row.expand(4, 3)",
     ["shape: (4, 3) stride: (0, 1)", "bytes in storage: 24 for 12 elements"]),
    ("slicing moves storage_offset", "01-tensors.md", "y = x[1:, 2:]",
     ["x[1:, 2:]  offset: 6 stride: (4, 1)", "x[:, ::2]  offset: 0 stride: (4, 2)"]),
    ("flip copies; negative steps are refused", "01-tensors.md", "f = x.flip(0)",
     ["tensor([4, 3, 2, 1, 0]) shares storage: False",
      "ValueError: step must be greater than zero"]),
    ("235,146 params = 940,584 B = 918.5 / 459.3 / 229.6 KiB", "01-tensors.md",
     'print(f"parameters: {n:,}")',
     ["parameters: 235,146", "940,584 B = 918.5 KiB", "470,292 B = 459.3 KiB",
      "235,146 B = 229.6 KiB"]),
    ("64x784x4 = 200,704 B = 196 KiB; 60,000 images = 179.4 MiB", "01-tensors.md",
     "batch = torch.empty(64, 784",
     ["batch : 200,704 B = 196 KiB", "train : 188,160,000 B = 179.4 MiB"]),
    ("device mismatch via meta", "01-tensors.md", "y = model(x)\n",
     ["model on meta | input on cpu", "RuntimeError: ", "meta"]),
    ("the mismatch fixed", "01-tensors.md", "y = model(x.to(model.weight.device))", ["meta (4, 2)"]),
    # chapter 2
    ("requires_grad propagates; grad_fn", "02-autograd.md", "y = x * 2\nprint(",
     ["x.requires_grad: True | y.requires_grad: True", "grad_fn=<MulBackward0>"]),
    ("node names and next_functions", "02-autograd.md", "walk(z.grad_fn)",
     ["z = 32.0", "SumBackward0", "  AddBackward0", "    PowBackward0", "      AccumulateGrad",
      "    MulBackward0"]),
    ("worked example A: z = 32, x.grad = [5, 7, 9] = 2x + 3", "02-autograd.md",
     'print("2x + 3 =", (2 * x + 3).detach())',
     ["z      = 32.0", "x.grad = tensor([5., 7., 9.])", "2x + 3 = tensor([5., 7., 9.])"]),
    ("finite difference agrees", "02-autograd.md", "estimate.append(",
     ["finite differences: [5.0, 7.0, 9.0]", "autograd          : [5.0, 7.0, 9.0]"]),
    ("node hooks watch the gradient flow", "02-autograd.md", "node.register_hook(",
     ["SumBackward0  passes on [[1.0, 1.0, 1.0]]", "MulBackward0  passes on [[3.0, 3.0, 3.0]]",
      "PowBackward0  passes on [[2.0, 4.0, 6.0]]", "x.grad = [5.0, 7.0, 9.0]"]),
    ("saved tensors", "02-autograd.md", "_saved_exponent:",
     ["PowBackward0 saved: ['_saved_exponent', '_saved_self']", "_saved_self    : [1.0, 2.0, 3.0]"]),
    ("backward through the graph a second time", "02-autograd.md", 'print("first backward ok',
     ["first backward ok, x.grad = [5.0, 7.0, 9.0]",
      "RuntimeError: Trying to backward through the graph a second time"]),
    ("the tape is rebuilt every run (control flow)", "02-autograd.md", "def f(x):\n    if x.sum()",
     ["[1.0, 2.0] -> SumBackward0 <- MulBackward0 | grad: [2.0, 2.0]",
      "[-1.0, -2.0] -> SumBackward0 <- PowBackward0 | grad: [3.0, 12.0]"]),
    ("only leaves keep .grad unless retain_grad()", "02-autograd.md", "w.retain_grad()",
     ["x.is_leaf: True | y.is_leaf: False", "y.grad: None", "w.grad: [1.0, 1.0, 1.0]"]),
    ("parameters are leaves with .grad", "02-autograd.md", "layer = nn.Linear(3, 1)",
     ["weight leaf=True requires_grad=True grad shape=(1, 3)", "bias.grad: [2.0]"]),
    ("gradients accumulate: g1 + g2 + g3", "02-autograd.md", "loss = (k * w).sum()",
     ["after backward 1: w.grad = [1.0, 1.0, 1.0]", "after backward 3: w.grad = [6.0, 6.0, 6.0]"]),
    ("resetting .grad gives 2w each time", "02-autograd.md", "for step in range(3):",
     ["step 2: w.grad = [2.0, -4.0, 1.0]"]),
    ("no_grad turns the tape off", "02-autograd.md", "with torch.no_grad():\n    doubled",
     ["inside no_grad : False None", "outside        : True MulBackward0",
      "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation."]),
    ("worked example B: 5.25 -> 3.36, grad [2, -4, 1], w = [0.8, -1.6, 0.4]", "02-autograd.md",
     'print(f"loss before:',
     ["loss before: 5.25", "grad       : [2.0, -4.0, 1.0]", "w after    : [0.8, -1.6, 0.4]",
      "loss after : 3.36"]),
    ("anomaly mode names the node", "02-autograd.md", "detect_anomaly()",
     ["RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output."]),
]  # fmt: skip

# (fact, pack file, drill id, params to use, repr of the truth or the exception's type name)
DRILL_FACTS = [
    ("float32 is 4 B", "01-memory-and-devices.yaml", "dtype-size", {"n": 3, "dt": "float32"}, "4"),
    ("float16 is 2 B", "01-memory-and-devices.yaml", "dtype-size", {"n": 3, "dt": "float16"}, "2"),
    ("bfloat16 is 2 B", "01-memory-and-devices.yaml", "dtype-size", {"n": 3, "dt": "bfloat16"}, "2"),
    ("int8 is 1 B", "01-memory-and-devices.yaml", "dtype-size", {"n": 3, "dt": "int8"}, "1"),
    ("strides (12, 4, 1)", "01-strides.yaml", "row-major-strides", {"a": 2, "b": 3, "c": 4},
     "(12, 4, 1)"),
    ("offset 12a + 4b + c", "01-strides.yaml", "offset-of-element",
     {"a": 2, "b": 3, "c": 4, "i": 1, "j": 2, "k": 3}, "23"),
    ("permute strides (1, 12, 4)", "01-strides.yaml", "permute-strides",
     {"a": 2, "b": 3, "c": 4, "perm": "2, 0, 1"}, "(1, 12, 4)"),
    ("view after permute raises", "01-strides.yaml", "view-after-permute",
     {"shape": "2, 3, 4", "perm": "2, 0, 1"}, "RuntimeError"),
    ("moving a size-1 dim keeps view working", "01-strides.yaml", "view-after-permute",
     {"shape": "3, 1, 4", "perm": "1, 0, 2"}, "torch.Size([12])"),
    ("expand stride 0", "01-strides.yaml", "expand-stride", {"a": 2, "b": 3, "c": 4},
     "(4, 0, 1)"),
    ("negative steps refused", "01-strides.yaml", "negative-step", {"n": 5, "step": -1},
     "ValueError"),
    ("a positive step is a view", "01-strides.yaml", "negative-step", {"n": 5, "step": 2},
     "[0, 2, 4]"),
    ("(3, 1) + (4,) broadcasts to (3, 4)", "01-strides.yaml", "broadcast-shape",
     {"sa": "3, 1", "sb": "4"}, "torch.Size([3, 4])"),
    ("(2, 3) + (4,) cannot broadcast", "01-strides.yaml", "broadcast-shape",
     {"sa": "2, 3", "sb": "4"}, "RuntimeError"),
    ("(N, 1) - (N,) is an N x N table", "01-strides.yaml", "broadcast-silent-bug",
     {"n": 8, "fix": ""}, "64"),
    ("float16 * 2.5 stays float16", "01-strides.yaml", "promotion-dtype",
     {"dt": "torch.float16", "op": "*", "other": "2.5"}, "torch.float16"),
    ("int32 + tensor([3]) is int64", "01-strides.yaml", "promotion-dtype",
     {"dt": "torch.int32", "op": "+", "other": "torch.tensor([3])"}, "torch.int64"),
    ("advanced indexing copies", "01-strides.yaml", "index-copy-or-view",
     {"n": 4, "idx": "[1, 2]"}, "[0, 1, 2, 3]"),
    ("a slice is a view", "01-strides.yaml", "index-copy-or-view", {"n": 4, "idx": "1:"},
     "[0, 100, 2, 3]"),
    ("flip always copies", "01-strides.yaml", "view-or-copy", {"op": "x.flip(0)"}, "False"),
    ("squeeze is metadata only", "01-strides.yaml", "view-or-copy", {"op": "x.squeeze(1)"}, "True"),
    ("contiguous() of a transpose copies", "01-strides.yaml", "view-or-copy",
     {"op": "x.transpose(0, 2).contiguous()"}, "False"),
    ("reshape of a transpose copies", "01-strides.yaml", "does-reshape-copy", {"src": "x.t()"},
     "False"),
    ("940,584 B in float32", "01-memory-and-devices.yaml", "mlp-bytes", {"dt": "float32"},
     "940584"),
    ("459.3 KiB in float16", "01-memory-and-devices.yaml", "mlp-bytes", {"dt": "float16"},
     "470292"),
    ("229.6 KiB in int8", "01-memory-and-devices.yaml", "mlp-bytes", {"dt": "int8"}, "235146"),
    ("64x784x4 = 200,704 B", "01-memory-and-devices.yaml", "batch-bytes",
     {"n": 64, "dt": "float32"}, "200704"),
    ("60,000 images = 179.4 MiB", "01-memory-and-devices.yaml", "dataset-mib", {"n": 60000},
     "179.4"),
    ("device mismatch raises", "01-memory-and-devices.yaml", "meta-mismatch",
     {"n_in": 3, "n_out": 2, "b": 4, "move": ""}, "RuntimeError"),
    ("on one device the layer runs", "01-memory-and-devices.yaml", "meta-mismatch",
     {"n_in": 3, "n_out": 2, "b": 4, "move": ".to(model.weight.device)"}, "torch.Size([4, 2])"),
    ("z = 32", "02-tape.yaml", "value-of-z", {"x0": 1, "x1": 2, "x2": 3, "k": 3}, "32.0"),
    ("x.grad = [5, 7, 9]", "02-tape.yaml", "grad-of-polynomial",
     {"x0": 1, "x1": 2, "x2": 3, "k": 3}, "tensor([5., 7., 9.])"),
    ("backward twice raises", "02-tape.yaml", "backward-twice", {"expr": "(x ** 2).sum()"},
     "RuntimeError"),
    ("a tape that saved nothing can be walked twice", "02-tape.yaml", "backward-twice",
     {"expr": "(x + 1).sum()"}, "[2.0, 2.0, 2.0]"),
    ("node names", "02-tape.yaml", "next-functions", {"expr": "x ** 2 + 3 * x"},
     "['PowBackward0', 'MulBackward0']"),
    ("a leaf input is AccumulateGrad", "02-tape.yaml", "next-functions", {"expr": "x.exp() + x"},
     "['ExpBackward0', 'AccumulateGrad']"),
    ("an in-place change to a saved output raises", "02-tape.yaml", "in-place-saved",
     {"a": 1, "expr": "x.sigmoid()"}, "RuntimeError"),
    ("an in-place change nothing saved is recorded", "02-tape.yaml", "in-place-saved",
     {"a": 1, "expr": "x * 3"}, "[6.0, 6.0]"),
    ("w = [0.8, -1.6, 0.4]", "02-rules.yaml", "step-by-hand",
     {"a": 1.0, "b": -2.0, "c": 0.5, "lr": 0.1}, "tensor([ 0.8000, -1.6000,  0.4000])"),
    ("loss 5.25 -> 3.36", "02-rules.yaml", "loss-after-step", {"lr": 0.1}, "3.36"),
    ("g1 + g2 + g3 accumulate", "02-rules.yaml", "accumulate-three", {"a": 1, "b": -2, "n": 3},
     "tensor([ 12., -24.])"),
    ("only leaves keep .grad", "02-rules.yaml", "intermediate-grad", {"k": 2, "who": "y"}, "None"),
    ("the leaf keeps it", "02-rules.yaml", "intermediate-grad", {"k": 2, "who": "x"},
     "tensor([ 8., 16.])"),
    ("no_grad: no tape", "02-rules.yaml", "no-grad-result", {"expr": "y * 3"}, "False"),
    ("after no_grad the tape is on again", "02-rules.yaml", "no-grad-result", {"expr": "y * w"},
     "True"),
    ("in-place on a leaf that requires grad", "02-rules.yaml", "in-place-on-leaf",
     {"a": 1, "b": -2, "how": "w.sub_(0.5)"}, "RuntimeError"),
    ("detach() writes through, off the tape", "02-rules.yaml", "in-place-on-leaf",
     {"a": 1, "b": -2, "how": "w.detach().sub_(0.5)"}, "[0.5, -2.5]"),
]  # fmt: skip


def _id(fact: tuple) -> str:
    return fact[0]


@pytest.mark.parametrize("fact", LESSON_FACTS, ids=_id)
def test_lesson_shows_the_number(fact, course):
    _, lesson, marker, expected = fact
    recorded = course.snippet(lesson, code=marker).output
    assert recorded is not None, f"{lesson}: the snippet with {marker!r} has no recorded output"
    for text in expected:
        assert text in recorded, f"{lesson}: {text!r} not in the recorded output:\n{recorded}"


@pytest.mark.parametrize("fact", LESSON_FACTS, ids=_id)
def test_torch_produces_the_number(fact, course):
    _, lesson, marker, expected = fact
    actual = course.fresh(lesson, course.snippet(lesson, code=marker))
    for text in expected:
        assert text in actual, f"torch did not print {text!r}; it printed:\n{actual}"


@pytest.mark.parametrize("fact", DRILL_FACTS, ids=_id)
def test_drill_truth_is_the_number(fact, course):
    _, pack_file, drill_id, params, expected = fact
    drill = course.drill(pack_file, drill_id)
    assert drill.kind == "predict"
    assert set(params) == set(drill.params), f"{drill.id}: params {sorted(drill.params)}"
    result = course.ask(drill, params, timeout=30)
    if expected.endswith(("Error", "Exception")):
        assert result.exception is not None, f"expected {expected}, got {result.stdout!r}"
        assert result.exception.type == expected
    else:
        assert result.ok, f"{result.status}: {result.exception or result.reason}"
        assert result.stdout.strip() == expected


def test_every_fact_file_exists():
    for _, lesson, *_ in LESSON_FACTS:
        assert Path(LESSONS / lesson).is_file()
    for _, pack_file, *_ in DRILL_FACTS:
        assert Path(DRILLS / pack_file).is_file()
