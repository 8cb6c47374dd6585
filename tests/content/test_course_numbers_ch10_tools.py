"""The facts chapter 10 teaches about torch_xla's everyday tools and torchax's interop, checked
twice: each appears in the recorded output of a lesson snippet, and comes out of that same
snippet again when torch_xla, torchax, jax and optax run it now in the xla runtime (PJRT on the
CPU). Counts, never timings. Skips where the xla runtime is not built (fails under
TUTOR_REQUIRE_XLA=1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

LESSON = Path(__file__).resolve().parents[2] / "lessons" / "10-bridges.md"

# (what the lesson says, the text the xla runtime prints for it)
FACTS: list[tuple[str, str]] = [
    ("sync compiles a step once", "torch_xla.sync: compiles 1, cache hits 2, MarkStep 3"),
    (
        "mark_step cuts the graphs sync compiled",
        "xm.mark_step:   compiles 0, cache hits 3, MarkStep 3",
    ),
    (
        "mark_step and xla_device are deprecated for sync and device",
        "warnings: ['DeprecationWarning: Use torch_xla.device instead', "
        "'DeprecationWarning: Use torch_xla.sync instead']",
    ),
    ("xm.xla_device is torch_xla.device", "xm.xla_device(): xla:0 | the same device: True"),
    ("torch_xla.compile cuts the step itself", "call 2: compiles 1, cache hits 2"),
    (
        "full_graph=True refuses a value read inside the step",
        "full_graph=True: Unexpected execution happens inside the compiled function",
    ),
    (
        "max_different_graphs refuses a second shape",
        "6 rows: Maximum number of different graphs allowed per function exceeded: 1",
    ),
    ("lazy tracing records the step every call", "lazy tracing:     matmuls traced 3, compiles 1"),
    ("openxla traces once, then replays", "backend=openxla:  matmuls traced 2, compiles 1"),
    ("a new shape retraces under openxla", "openxla, 6 rows:  matmuls traced 2, compiles 1"),
    (
        "MpDeviceLoader moved every batch before step 0",
        "transfers so far: 1 of 512 bytes, tensors placed: 16",
    ),
    ("a loader batch is device data", "x is f32[4,2]{1,0} xla::device_data()"),
    (
        "MpDeviceLoader syncs at each batch",
        "after the loop: transfers 1 | MarkStep 10 | graph runs 8",
    ),
    (
        "PT_XLA_DEBUG_LEVEL names a value read as the cause",
        "    most likely user code trying to access tensor value before torch_xla.sync",
    ),
    ("PT_XLA_DEBUG_LEVEL names the line", "    <module> (<answer>:12)"),
    ("PT_XLA_DEBUG_LEVEL names a sync as the cause", "    user torch_xla.sync"),
    (
        "level 1 drops the Execution Analysis",
        "PT_XLA_DEBUG_LEVEL=1: ['Compilation', 'Post Compilation']",
    ),
    (
        "level 2 keeps it",
        "PT_XLA_DEBUG_LEVEL=2: ['Compilation', 'Execution', 'Post Compilation']",
    ),
    (
        "the persistent cache writes the program",
        "first process : compiles 1, {'PersistentCacheMiss': 1}, files in the cache 1",
    ),
    (
        "PJRT on the CPU cannot load it back",
        "second process: compiles 1, {'PersistentCacheDeserializeFailure': 1}",
    ),
    ("the log says why", "Deserializing serialized executable not supported."),
    ("jax_view does not copy", "jax_view(t):       ArrayImpl (2, 3) | the same buffer: True"),
    (
        "torch_view gives a torch tensor on the jax device",
        "torch_view(...):   Tensor jax:0 [[1.0, 2.0, 4.0], [4.0, 8.0, 13.0]]",
    ),
    (
        "call_jax runs a JAX function on torch tensors",
        "call_jax(gelu, t): Tensor jax:0 | equal to torch's: True",
    ),
    (
        "jax.grad + optax trains like torch.optim.SGD",
        "step 2: jax.grad + optax 0.857951 | torch.optim.SGD 0.857951",
    ),
    (
        "the jitted train step is traced once",
        "traced once | weights equal after 3 steps: True",
    ),
]


@pytest.mark.parametrize(("fact", "needle"), FACTS, ids=[f[0] for f in FACTS])
def test_tool_fact_recorded_and_reproduced(course, xla_sandbox, fact, needle):
    course.check_fact(LESSON, fact, needle, xla_sandbox)


def _prose(text: str) -> list[str]:
    """The lesson's paragraphs outside code and output blocks, front matter dropped."""
    body = text.split("\n---\n", 1)[1]
    return [p for p in re.sub(r"```.*?```", "", body, flags=re.S).split("\n\n") if p.strip()]


#: what a paragraph says when its TPU claim was not shown on this CPU
LABELS = ("not measured", "not checked", "never ran on a TPU")


def test_every_tpu_claim_in_the_new_sections_is_labelled():
    """Sections 6 to 10 (torch_xla's tools, torchax's interop): a paragraph that says what
    happens on a TPU says that this machine did not show it."""
    text = LESSON.read_text(encoding="utf-8")
    start = text.index("## 6. Compiling a step on purpose")
    end = text.index("## 11. Both bridges land on StableHLO")
    claims = [p for p in _prose("\n---\n" + text[start:end]) if "TPU" in p]
    assert len(claims) >= 3
    unlabelled = [" ".join(p.split())[:120] for p in claims if not any(k in p for k in LABELS)]
    assert not unlabelled, unlabelled


def test_the_train_step_links_the_bridges_lab():
    text = LESSON.read_text(encoding="utf-8")
    section = text[text.index("### A train step through") : text.index("## 11. Both bridges")]
    assert "](lab:bridges?example=a%20small%20MLP)" in section
