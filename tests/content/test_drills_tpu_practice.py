"""Chapter 11's drills graded by the real engine in the xla runtime (PJRT on the CPU, four
virtual devices): the right answer passes, each likely mistake gets the feedback written for it,
and the cheats a clever learner would try (a variant's own numbers, a sync that only moves the
count) are refused with a message that says what torch_xla did. Skips where the xla runtime is
not built (fails under TUTOR_REQUIRE_XLA=1)."""

from __future__ import annotations

import pytest

from tutor.content.catalog import Catalog
from tutor.grading.engine import grade, grade_batch
from tutor.grading.variants import draw_params

#: under xdist, with the other tests that share the xla runtime's sandbox
pytestmark = pytest.mark.xdist_group("course")

CATALOG = Catalog.load()


def seed_for(drill: str, **want: object) -> int:
    """The first attempt seed whose params are ``want``."""
    ref = CATALOG.drill(f"tpu-practice/{drill}")
    for seed in range(5000):
        params = draw_params(ref.drill.params, seed)
        if all(params[k] == v for k, v in want.items()):
            return seed
    raise AssertionError(f"no seed draws {want} for {drill}")


# (drill, params, the right answer, [(a likely mistake, words of its feedback)])
PREDICT = [
    ("fsdp-piece", {"i": 30, "o": 10}, "(10, 8)", [
        ("(10, 30)", "That is the whole weight"),
        ("(3, 30)", "does not always split the first dimension"),
        ("(8, 10)", "stores its weight as (out_features, in_features)"),
        ("(10, 7)", "padded up, not cut short"),
    ]),
    ("piece-of-h", {"mesh": "2, 2", "wspec": '(None, "model")'}, "(4, 32)", [
        ("(8, 32)", "That is the whole product"),
        ("(4, 16)", "does not split h's columns"),
    ]),
    ("loader-piece", {"n": 18, "b": 8, "which": "y"}, "(2,)", [
        ("(1,)", "the spec does not apply to it"),
        ("(8,)", "That is a full batch's piece"),
    ]),
    ("autocast-dtype", {"expr": "(a @ a).sum()"}, "torch.bfloat16", [
        ("float32", "does not raise a sum or an addition"),
    ]),
    ("autocast-dtype", {"expr": "a + a"}, "float32", [
        ("bfloat16", "does not lower every op"),
    ]),
    ("sync-runs", {"micro": 4, "where": "once at the end of each step"}, "3", [
        ("12", "traced into one graph"),
        ("4", "ran its program before the counters were cleared"),
    ]),
    ("pallas-program-id", {"bs": 8, "index": "n_blocks - 1 - i", "r": 0}, "3", [
        ("0", "does not always handle block i"),
        ("4", "count from 0"),
    ]),
    ("bf16-rounds", {"v": "65520.0", "dtype": "bfloat16"}, "65536", [
        ("inf", "That is float16's answer"),
        ("65520", "That is the float32 value"),
    ]),
    ("growing-graph", {"n": 3}, "18", [
        ("8", "does not stay one step long"),
        ("24", "they are one graph that grows"),
    ]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("drill", "params", "right", "mistakes"), PREDICT, ids=[f"{d} {p}" for d, p, *_ in PREDICT]
)
def test_predict_names_the_likely_mistake(xla_sandbox, drill, params, right, mistakes):
    ref = CATALOG.drill(f"tpu-practice/{drill}")
    seed = seed_for(drill, **params)
    answers = [(right, seed)] + [(wrong, seed) for wrong, _ in mistakes]
    graded = [g for _, _, g in grade_batch(ref, answers, xla_sandbox)]
    assert graded[0].correct, graded[0].feedback
    for (wrong, words), g in zip(mistakes, graded[1:], strict=True):
        assert not g.correct, f"{wrong!r} passed"
        assert words in g.feedback, f"{wrong!r}: {g.feedback}"


def _sync_loop(inner: str, outer: str, before: str = "    torch_xla.sync()\n") -> str:
    return (
        "def train(steps, micro):\n    w = torch.zeros(3, device=dev)\n"
        + before
        + "    for step in range(steps):\n        for m in range(micro):\n"
        "            w = w * 0.9 + (m + 1.0)\n" + inner + outer + "    return w\n"
    )


FSDP_RIGHT = (
    "import math\n\ndef bytes_per_device(model):\n    total = 0\n"
    "    for p in model.parameters():\n        k = max(range(p.dim()), key=lambda d: (p.shape[d], -d))\n"
    "        total += p.nbytes // p.shape[k] * math.ceil(p.shape[k] / 4)\n    return total\n"
)

# (drill, what it is, the answer, None when it is right, else words of the feedback)
CODE = [
    ("fix-sync-placement", "the sync before the loop left out",
     _sync_loop("", "        torch_xla.sync()\n", before=""), None),
    ("fix-sync-placement", "one sync after the loop",
     _sync_loop("", "    torch_xla.sync()\n"), "each step runs 0 programs"),
    ("fix-sync-placement", "the starter's sync every micro-batch",
     _sync_loop("            torch_xla.sync()\n", ""), "each step runs 4 programs"),
    ("fix-sync-placement", "a second program each step",
     _sync_loop("", "        torch_xla.sync()\n        w = w + 0.0\n        torch_xla.sync()\n"),
     "each step runs 2 programs"),
    ("fsdp-bytes", "the padded dimension found another way", FSDP_RIGHT, None),
    ("fsdp-bytes", "a quarter of the bytes", "def bytes_per_device(model):\n"
     "    return sum(p.nbytes for p in model.parameters()) // 4\n", "FSDPv2 leaves"),
    ("shard-mlp", "mesh axes by index", "def shard_mlp(model, mesh):\n"
     "    xs.mark_sharding(model[0].weight, mesh, (1, None))\n"
     "    xs.mark_sharding(model[0].bias, mesh, (1,))\n"
     "    xs.mark_sharding(model[2].weight, mesh, (None, 1))\n", None),
    ("shard-mlp", "both layers split by their output features", "def shard_mlp(model, mesh):\n"
     "    for layer in (model[0], model[2]):\n"
     "        xs.mark_sharding(layer.weight, mesh, ('model', None))\n"
     "        xs.mark_sharding(layer.bias, mesh, ('model',))\n", "the second weight is sharded"),
]  # fmt: skip


@pytest.mark.parametrize(("drill", "what", "answer", "words"), CODE, ids=[c[1] for c in CODE])
def test_code_and_fix_answers(xla_sandbox, drill, what, answer, words):
    ref = CATALOG.drill(f"tpu-practice/{drill}")
    seed = seed_for(drill, mesh="2, 2") if drill == "shard-mlp" else 1
    g = grade(ref, answer, seed, xla_sandbox)
    if words is None:
        assert g.correct, g.feedback
    else:
        assert not g.correct and words in g.feedback, g.feedback


def test_a_variants_own_byte_count_fails_on_the_next(xla_sandbox):
    ref = CATALOG.drill("tpu-practice/fsdp-bytes")
    seed = seed_for("fsdp-bytes", h=24, dt="float32")
    own = "def bytes_per_device(model):\n    return 388\n"  # this variant's true count
    g = grade(ref, own, seed, xla_sandbox)
    assert not g.correct and "FSDPv2 leaves" in g.feedback, g.feedback
