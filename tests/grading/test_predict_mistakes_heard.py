"""The likely mistakes of the predict drills reach the learner. On two seeds (on the xla
runtime, the first seed where a mistake has a value), the value of each `wrong` entry, typed as
a learner would type it, is graded wrong and followed by that entry's own feedback (the first
entry's, where two mistakes give one value); the truth typed the same way is graded right.
Graded by the real engine in the real sandbox (the xla runtime for a drill that runs there), for
the packs in ``PACKS`` and part i's drills in ``PART_ONE``, whose classic mistakes (float32's
size for a 16-bit type, a transpose's strides, the broadcast table, gradients that accumulate)
each have their own feedback."""

from __future__ import annotations

import pytest

from tutor.content.catalog import Catalog
from tutor.content.models import PredictDrill
from tutor.grading.engine import grade, grade_batch, plan, run_call
from tutor.grading.truth import show
from tutor.grading.variants import render_prose

CATALOG = Catalog.load()
PACKS = {"honest-clock", "bridges"}
SEEDS = (1, 2)
PART_ONE = {
    "memory-and-devices": [
        "dtype-size",
        "batch-bytes",
        "mlp-bytes",
        "dataset-mib",
        "float16-overflow",
        "meta-mismatch",
    ],
    "strides-and-views": [
        "row-major-strides",
        "permute-strides",
        "permute-shape",
        "contiguous-strides",
        "expand-stride",
        "slice-offset",
        "step-slice-stride",
        "broadcast-silent-bug",
        "promotion-dtype",
        "index-copy-or-view",
        "offset-of-element",
        "view-after-permute",
        "view-merge-rule",
        "unsqueeze-stride",
        "negative-step",
        "does-reshape-copy",
        "view-or-copy",
        "broadcast-shape",
    ],
    "three-rules-of-autograd": [
        "accumulate-three",
        "intermediate-grad",
        "retain-grad",
        "no-grad-result",
        "in-place-on-leaf",
        "step-by-hand",
        "loss-after-step",
    ],
    "reading-the-tape": [
        "grad-of-polynomial",
        "value-of-z",
        "node-name",
        "next-functions",
        "hook-sees-gradient",
        "in-place-saved",
        "backward-twice",
    ],
    "parameter-ledger": [
        "linear-params",
        "linear-weight-shape",
        "conv2d-params",
        "batchnorm-params",
        "batchnorm-buffers",
        "embedding-params",
        "layernorm-params",
        "stateless-layers",
        "mlp-params",
        "mlp-batchnorm-params",
        "residual-params",
        "linear-multiply-adds",
    ],
    "modules-own-parameters": [
        "registered-params",
        "state-dict-keys",
        "to-recurses",
        "modules-count",
        "train-flag-default",
    ],
    "five-line-loop": [
        "accumulated-grad",
        "dropout-scale",
        "batchnorm-running-mean",
        "ce-uniform-logits",
        "steplr-after-steps",
        "overfit-initial-loss",
        "missing-bias",
        "step-before-backward",
        "momentum-two-steps",
        "momentum-terminal-step",
        "adam-first-step",
        "ce-gradient",
        "softmax-floor",
        "float16-smallest-normal",
        "adam-moment-bytes",
    ],
}

#: the xla runtime keeps its compile cache for the life of a process: each grading there is a
#: sandbox call of its own (a batch would find the graphs of the answers before it cached), on
#: one seed (each call compiles again)
XLA_SEEDS = (1, 2, 3, 4)


def _typed(value: dict) -> str:
    """A tagged value as a learner types it: an exception by its name."""
    return value["name"] if value["type"] == "exception" else show(value)


DRILLS = [
    ref.full_id
    for ref in CATALOG.drills()
    if ref.full_id.split("/")[0] in PACKS and isinstance(ref.drill, PredictDrill)
] + [f"{pack}/{drill}" for pack, drills in PART_ONE.items() for drill in drills]


@pytest.mark.parametrize("drill", DRILLS)
def test_each_likely_mistake_gets_its_own_feedback(request, drill):
    ref = CATALOG.drill(drill)
    sandbox = request.getfixturevalue("xla_sandbox" if ref.drill.runtime == "xla" else "sandbox")
    assert ref.drill.wrong, f"{drill} names no likely mistakes"
    xla = ref.drill.runtime == "xla"
    heard = 0
    for seed in XLA_SEEDS if xla else SEEDS:
        p = plan(ref, "", seed)
        result = run_call(p, sandbox)
        assert result is not None and result.ok, (seed, result)
        data = result.value
        answers = [(_typed(data["value"]), seed)]
        feedback: dict[str, str] = {}
        for entry, value in zip(ref.drill.wrong, data["wrong"], strict=True):
            if value["outcome"] == "value" and value["value"]["type"] != "none":
                typed = _typed(value["value"])
                if typed not in feedback:
                    answers.append((typed, seed))
                    feedback[typed] = render_prose(entry.feedback, p.params).strip()
        if xla:
            grades = [grade(ref, typed, seed, sandbox) for typed, seed in answers]
        else:
            grades = [g for _, _, g in grade_batch(ref, answers, sandbox)]
        assert grades[0].correct, (seed, answers[0][0], grades[0].feedback)
        for (typed, _), g in zip(answers[1:], grades[1:], strict=True):
            assert not g.correct, (seed, typed)
            assert g.feedback.endswith(feedback[typed]), (seed, typed, g.feedback)
            heard += 1
        if xla and heard:
            break
    assert heard, f"{drill}: no likely mistake had a value"
