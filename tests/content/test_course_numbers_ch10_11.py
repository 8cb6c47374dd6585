"""The facts COURSE.md gives for chapters 10 (the two bridges) and 11 (TPU practice), checked
twice: each appears in the recorded output of a lesson snippet, and comes out of that same snippet
again when torch_xla, torchax and jax run it now in the xla runtime (PJRT on the CPU). Drills
that teach a number are run with the params of the lesson's example. Skips where the xla runtime
is not built (fails under TUTOR_REQUIRE_XLA=1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.lessons import load_lesson

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

ROOT = Path(__file__).resolve().parents[2]
LESSONS = {10: ROOT / "lessons" / "10-bridges.md", 11: ROOT / "lessons" / "11-tpu-practice.md"}

# (chapter, what COURSE.md says, the text the xla runtime prints for it in the lesson)
FACTS: list[tuple[int, str, str]] = [
    (10, "torch_xla 2.9.0 needs torch 2.9.0", "torch 2.9.0 | torch_xla 2.9.0"),
    (10, "torchax 0.0.13 with jax 0.10.2", "torchax 0.0.13 | jax 0.10.2"),
    (10, "runs on CPU with PJRT_DEVICE=CPU", "PJRT_DEVICE = CPU | device: xla:0"),
    (10, "lazy tensors record an IR, nothing compiled yet", "compiled so far: 0"),
    (10, "the IR holds aten operations", "aten::mul(%4, %2)"),
    (10, "sync compiles once, then the cache", "step 2: compiles 1, cache hits 2"),
    (10, "CompileTime on the first step", "first step:  CompileTime samples 1 | UncachedCompile 1"),
    (
        10,
        "ExecuteTime and cached compiles after it",
        "next three:  CompileTime samples 0 | ExecuteTime samples 3 | CachedCompile 3",
    ),
    (10, "recompiles from changing shapes", "batch 8: compiles 3"),
    (10, "a repeated shape is cached", "batch 4: compiles 2"),
    (10, "a Python multiplier is data", "x * s, s = 2, 3, 4, 5:      1 compile"),
    (10, "a Python exponent recompiles", "x ** p, p = 2, 3, 4, 5:     4 compiles"),
    (10, "CPU fallbacks", "torch.nonzero(x > 0.5)   fallbacks: ['aten::nonzero']"),
    (10, "torchax math inside default_env", "Tensor jax:0 12.0 ArrayImpl"),
    (10, ".item() outside it raises", "outside default_env: torchax Tensors can only do math"),
    (10, "extract_jax gives a pure function for jax.jit", "same as eager: True"),
    (10, "torch_xla lands on StableHLO", "torch_xla export   ['stablehlo.add'"),
    (10, "torchax lands on StableHLO", "torchax + jax.jit  ['stablehlo.add'"),
    (10, "the export of a full x.sum() returns x", "exported: tensor([[0., 1., 2.],"),
    (10, "jax.jit traces once per shape", "traced for shapes: [(4, 3), (6, 3)]"),
    (11, "SPMD on a mesh of virtual CPU devices", "devices: 4 | mesh: {'data': 4}"),
    (11, "a sharding annotation", "sharding: {devices=[4,1]0,1,2,3}"),
    (11, "each device holds its rows", "device 3: rows 6-7, [[12.0, 13.0], [14.0, 15.0]]"),
    (11, "shardings propagate; the sum is global", "h: {devices=[4,1]0,1,2,3} | total: 360.0"),
    (11, "one program for the mesh", "programs compiled: 1"),
    (
        11,
        "FSDPv2 shards each parameter along its largest dimension",
        "_orig_module.2.weight  (10, 32)  {devices=[1,4]0,1,2,3}   device 0 keeps (10, 8)",
    ),
    (
        11,
        "a dimension the devices do not divide is padded",
        "_orig_module.2.bias    (10,)     {devices=[4]0,1,2,3}     device 0 keeps (3,)",
    ),
    (11, "parameter bytes per device", "parameter bytes: 3,496 in all, 876 on each device"),
    (11, "FSDPv2 computes eager's gradients", "every gradient equal to eager's: True"),
    (
        11,
        "gradients and Adam's moments are sharded like their parameter",
        "its gradient: {devices=[4,1]0,1,2,3} | its Adam moments: ['{devices=[4,1]0,1,2,3}']",
    ),
    (11, "a 2-D data x model mesh", "devices: [[0, 1], [2, 3]] axes: ('data', 'model')"),
    (11, "the hidden activation is split both ways", "h:   (8, 32) {devices=[2,2]0,1,2,3}"),
    (
        11,
        "column- then row-parallel costs one all-reduce",
        "{'all-reduce': 1, 'all-gather': 0, 'reduce-scatter': 0}",
    ),
    (
        11,
        "MpDeviceLoader delivers each batch split",
        "batch 2: x (4, 2) {devices=[4,1]0,1,2,3}, first column on each device "
        "[[32.0], [34.0], [36.0], [38.0]]",
    ),
    (11, "1-D labels under a 2-entry spec arrive whole", "labels: {replicated}"),
    (11, "a spec per name splits the labels", "| y {devices=[4]0,1,2,3}"),
    (11, "Pallas interprets a kernel on the CPU", "interpreted, equal to x * 2 + 1: True"),
    (
        11,
        "a compiled Pallas kernel needs a TPU",
        "make_kernel_from_pallas: ValueError: Only interpret mode is supported on CPU backend.",
    ),
    (11, "torch reaches a Pallas kernel through torchax", "from torch: Tensor (32, 2)"),
    (11, "changing shapes: a program each", "as they come:         7 new programs"),
    (11, "padding: one program", "padded to 32:         1 new program"),
    (11, "buckets: a few programs", "buckets of 8, 16, 32: 2 new programs"),
    (11, "sync placement", "sync every micro-batch: 12 program runs, 1 new compile"),
    (11, "one sync per step", "sync every step       :  3 program runs, 1 new compile"),
    (11, "the metrics report names the fallback", "fallback counters: ['aten::nonzero']"),
    (11, "bf16 keeps float32's range", "bfloat16: [1.0, 1.0078125, 65536.0,"),
    (11, "float16 does not", "float16:  [1.00390625, 1.0078125, inf, inf]"),
    (
        11,
        "autocast on XLA",
        "matmul under autocast: torch.bfloat16 | add under autocast: torch.float32",
    ),
    (11, "a profiler trace counts the compile", "PjRtComputationClient::Compile  1 event"),
]


@pytest.mark.parametrize(("chapter", "fact", "needle"), FACTS, ids=[f[1] for f in FACTS])
def test_course_fact_recorded_and_reproduced(course, xla_sandbox, chapter, fact, needle):
    course.check_fact(LESSONS[chapter], fact, needle, xla_sandbox)


@pytest.mark.parametrize(
    ("chapter", "lab", "link"),
    [(10, "bridges", "](lab:bridges?"), (11, "recompile", "](lab:recompile?")],
)
def test_lessons_link_their_labs_and_name_their_reading(chapter, lab, link):
    lesson = load_lesson(LESSONS[chapter])
    text = LESSONS[chapter].read_text()
    assert lesson.labs == [lab] and link in text
    assert "### Assigned reading" in text and "### The JAX way" in text
    assert "not measured on a TPU" in text or "not measured here" in text
    assert all(s.output is not None for s in lesson.snippets)


# (pack, drill, params of the lesson's example, what the xla runtime must say)
DRILL_CASES = [
    ("10-bridges.yaml", "compiles-for-batches", {"sizes": "4, 6, 4, 8"}, "3"),
    (
        "10-bridges.yaml",
        "scalars-that-recompile",
        {"values": "2.0, 3.0, 4.0", "expr": "x * s"},
        "1",
    ),
    (
        "10-bridges.yaml",
        "scalars-that-recompile",
        {"values": "2.0, 3.0, 4.0", "expr": "x ** s"},
        "3",
    ),
    (
        "11-tpu-practice.yaml",
        "bucket-programs",
        {"buckets": "8, 16, 32", "sizes": "3, 5, 7, 9, 12, 17, 30"},
        "3",
    ),
    ("11-tpu-practice.yaml", "sync-runs", {"micro": 4, "where": "after every micro-batch"}, "12"),
]


@pytest.mark.parametrize(("pack", "drill_id", "params", "want"), DRILL_CASES)
def test_drill_truth_is_the_lesson_number(course, xla_sandbox, pack, drill_id, params, want):
    drill = course.drill(pack, drill_id)
    limits = {"timeout": 180.0, "memory_mb": 4096, "profile": "compile"}
    assert course.truth(drill, params, sandbox=xla_sandbox, **limits) == want
