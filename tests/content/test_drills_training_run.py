"""Chapter 12's drills graded by the real engine in the real sandbox: the right answer passes
(also where it is a float's round-off of 0), each likely mistake gets the feedback written for
it, and the wrong fixes a learner would try (a state_dict kept without a copy, a checkpoint
rewritten in place, an error swallowed) are refused with a message that says what happened."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tutor.content.catalog import Catalog
from tutor.grading.engine import grade, grade_batch
from tutor.grading.variants import draw_params

CATALOG = Catalog.load()

Params = dict[str, object]


def seed_for(drill: str, wanted: Callable[[Params], bool]) -> tuple[int, Params]:
    """The first attempt seed whose params satisfy ``wanted``, and those params."""
    ref = CATALOG.drill(f"training-run/{drill}")
    for seed in range(20000):
        params = draw_params(ref.drill.params, seed)
        if wanted(params):
            return seed, params
    raise AssertionError(f"no seed of {drill} draws what the test wants")


def has(**want: object) -> Callable[[Params], bool]:
    return lambda p: all(p[k] == v for k, v in want.items())


def ceil_div(n: object, b: object) -> int:
    return -(-int(str(n)) // int(str(b)))


# (drill, which variant, the right answer, [(a likely mistake, words of its feedback)]);
# an answer may be computed from the variant's params
PREDICT = [
    ("steps-per-epoch", lambda p: not p["drop"] and int(p["n"]) % int(p["b"]),
     lambda p: str(ceil_div(p["n"], p["b"])), [
        (lambda p: str(int(p["n"]) // int(p["b"])), "leaves out the last, partial batch"),
    ]),
    ("last-batch-size", lambda p: int(p["n"]) % int(p["b"]) > 1,
     lambda p: str(int(p['n']) % int(p['b'])), [
        (lambda p: str(p["b"]), "That is a full batch"),
    ]),
    ("mlp-parameters", has(h=64), "4810", [
        ("4736", "counts the weights only"),
        ("40960", "they do not multiply"),
    ]),
    ("accuracy-of-logits", has(a=2.0, b=2.0, c=2.0, d=0.0), "1.0", [
        ("4", "how many rows are right"),
        ("0", "fraction of rows whose prediction is wrong"),
    ]),
    ("exponential-lr", has(lr=0.05, g=0.7, k=3), "0.0245", [
        ("0.01715", "one multiplication too many"),
        ("0.05", "writes a new rate into the optimizer"),
    ]),
    ("steplr-per-batch", has(s=20), "0.0005", [
        ("0.005", "as if `scheduler.step()` ran once in epoch 1"),
        ("0.05", "does not wait for an epoch"),
    ]),
    ("momentum-lost-on-resume", has(a=5), "0", [
        ("-0.45", "That is the uninterrupted run"),
        ("0.5", "the weight after the first step only"),
    ]),
    ("initial-loss", has(c=10), "2.303", [
        ("1", "logarithm to base 10"),
        ("3.322", "logarithm to base 2"),
        ("0.1", "probability every class gets"),
    ]),
    ("clipped-gradient", has(g3=6, g4=8, m=5.0), "3", [
        ("6", "the gradient as it was"),
        ("5", "what `clip_grad_value_` does"),
        ("10", "the norm before clipping"),
    ]),
    ("clipped-gradient", has(g3=3, g4=4, m=10.0), "3.0", [
        ("6", "never scales a gradient up"),
    ]),
    ("decay-without-gradient", has(w0=3.0, opt="AdamW", lr=0.1, wd=0.5), "2.85", [
        ("2.9", "That is Adam's weight decay"),
        ("3", "A zero gradient does not mean no step"),
        ("2.95", "proportional to the weight itself"),
        ("1.5", "scaled by the learning rate too"),
    ]),
    ("decay-without-gradient", has(w0=-4.0, opt="Adam", lr=0.1, wd=0.5), "-3.9", [
        ("-3.8", "That is AdamW's decoupled decay"),
    ]),
    ("deterministic-empty", has(dt="float32"), "nan", [
        ("0", "does not zero its memory"),
    ]),
    ("deterministic-empty", has(dt="int32"), "2147483647", [
        ("nan", "cannot hold NaN"),
        ("-2147483648", "Not the bottom of the dtype's range"),
    ]),
]  # fmt: skip


def _text(answer: str | Callable[[Params], str], params: Params) -> str:
    return answer(params) if callable(answer) else answer


@pytest.mark.parametrize(
    ("drill", "wanted", "right", "mistakes"),
    PREDICT,
    ids=[f"{r[0]}-{i}" for i, r in enumerate(PREDICT)],
)
def test_predict_names_the_likely_mistake(sandbox, drill, wanted, right, mistakes):
    ref = CATALOG.drill(f"training-run/{drill}")
    seed, params = seed_for(drill, wanted)
    answers = [(_text(right, params), seed)] + [(_text(w, params), seed) for w, _ in mistakes]
    graded = [g for _, _, g in grade_batch(ref, answers, sandbox)]
    assert graded[0].correct, (params, graded[0].feedback)
    for (wrong, words), g in zip(mistakes, graded[1:], strict=True):
        assert not g.correct, f"{_text(wrong, params)!r} passed"
        assert words in g.feedback, f"{_text(wrong, params)!r}: {g.feedback}"


BEST_LOOP = (
    "optimizer = torch.optim.Adam(model.parameters(), lr=0.02)\n"
    "best_loss, best_epoch, best_state = float('inf'), 0, None\n"
    "for epoch in range(1, 41):\n    optimizer.zero_grad()\n"
    "    F.cross_entropy(model(x_train), y_train).backward()\n    optimizer.step()\n"
    "    loss = val_loss(model)\n    if loss < best_loss:\n"
    "        best_loss, best_epoch, best_state = loss, epoch, {keep}\n"
)

STEP = (
    "def train_step(model, optimizer, x, y, max_norm):\n    optimizer.zero_grad()\n"
    "    F.cross_entropy(model(x), y).backward()\n    {clip}"
)
OVERFIT = (
    "{before}optimizer = torch.optim.Adam({opt}.parameters(), lr=0.01)\nlosses = []\n"
    "for step in range(200):\n    optimizer.zero_grad()\n"
    "    loss = F.cross_entropy(model(xb), yb)\n    loss.backward()\n    optimizer.step()\n"
    "    losses.append(loss.item())\n"
)

# (drill, what it is, the answer, None when it is right, else words of the feedback)
CODE = [
    ("best-state-that-moved-on", "a deep copy",
     "import copy\n" + BEST_LOOP.format(keep="copy.deepcopy(model.state_dict())"), None),
    ("best-state-that-moved-on", "the state_dict itself, as the starter keeps it",
     BEST_LOOP.format(keep="model.state_dict()"), "does not hold that epoch's weights"),
    ("best-state-that-moved-on", "a new dict of the same tensors",
     BEST_LOOP.format(keep="dict(model.state_dict())"), "does not hold that epoch's weights"),
    ("atomic-checkpoint", "a named temporary file, flushed and synced, then Path.replace",
     "import os\nimport tempfile\nfrom pathlib import Path\n\n"
     "def save_checkpoint(state, path):\n"
     "    with tempfile.NamedTemporaryFile(dir=os.path.dirname(path), delete=False) as f:\n"
     "        torch.save(state, f)\n        f.flush()\n        os.fsync(f.fileno())\n"
     "    Path(f.name).replace(path)\n", None),
    ("atomic-checkpoint", "the starter's save in place",
     "def save_checkpoint(state, path):\n    torch.save(state, path)\n", "does not load"),
    ("atomic-checkpoint", "the error swallowed",
     "def save_checkpoint(state, path):\n    try:\n        torch.save(state, path)\n"
     "    except RuntimeError:\n        pass\n", "does not load"),
    ("atomic-checkpoint", "the bytes made first, then written in place",
     "import io\n\ndef save_checkpoint(state, path):\n    buffer = io.BytesIO()\n"
     "    torch.save(state, buffer)\n    with open(path, 'wb') as f:\n"
     "        f.write(buffer.getvalue())\n", "rewritten in place"),
    ("atomic-checkpoint", "the saves that would fail skipped",
     "def save_checkpoint(state, path):\n    if all(isinstance(v, (torch.Tensor, int)) for v in state.values()):\n"
     "        torch.save(state, path)\n", "rewritten in place"),
    ("atomic-checkpoint", "the old checkpoint written back when the save raises",
     "def save_checkpoint(state, path):\n    old = torch.load(path, weights_only=True)\n"
     "    os.remove(path)\n    try:\n        torch.save(state, path)\n"
     "    except BaseException:\n        torch.save(old, path)\n        raise\n", "EOFError"),
    ("atomic-checkpoint", "the given old state written back when the save raises",
     "def save_checkpoint(state, path):\n    try:\n        os.remove(path)\n"
     "        torch.save(state, path)\n    finally:\n"
     "        if not os.path.exists(path) or state is not new_state:\n"
     "            torch.save(old_state, path)\n", "does not load"),
    ("clip-in-the-step", "clipped with its norm computed by hand, returned through float()",
     STEP.format(clip="params = [p for p in model.parameters() if p.grad is not None]\n"
                 "    norm = torch.stack([p.grad.norm() for p in params]).norm()\n"
                 "    for p in params:\n        p.grad.mul_(min(1.0, max_norm / (float(norm) + 1e-6)))\n"
                 "    optimizer.step()\n    return float(norm)\n"), None),
    ("clip-in-the-step", "the norm returned as a tensor",
     STEP.format(clip="norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
                 "    optimizer.step()\n    return norm\n"), "as a Python float"),
    ("clip-in-the-step", "the norm logged after clipping",
     STEP.format(clip="torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
                 "    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), float('inf'))\n"
                 "    optimizer.step()\n    return norm.item()\n"), "there, before clipping"),
    ("clip-in-the-step", "clipped after the step",
     STEP.format(clip="optimizer.step()\n"
                 "    return torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm).item()\n"),
     "see a gradient norm of"),
    ("overfit-one-batch", "the optimizer built over the model that is trained",
     OVERFIT.format(before="model = make_model()\nmodel = make_model()\n", opt="model"), None),
    ("overfit-one-batch", "the starter's optimizer over the first model",
     OVERFIT.format(before="first = make_model()\nmodel = make_model()\n", opt="first"),
     "did not learn it"),
    ("overfit-one-batch", "the stale optimizer kept, the losses written by hand",
     OVERFIT.format(before="first = make_model()\nmodel = make_model()\n", opt="first")
     + "losses = [2.3 - 0.0115 * k for k in range(200)]\n", "differ from 200 Adam steps"),
]  # fmt: skip


@pytest.mark.parametrize(("drill", "what", "answer", "words"), CODE, ids=[c[1] for c in CODE])
def test_fix_answers(sandbox, drill, what, answer, words):
    ref = CATALOG.drill(f"training-run/{drill}")
    for seed in (1, 2) if words is None else (1,):
        g = grade(ref, answer, seed, sandbox)
        if words is None:
            assert g.correct, (seed, g.feedback)
        else:
            assert not g.correct and words in g.feedback, g.feedback


def test_a_step_that_never_clips_fails_on_every_draw(sandbox):
    """The limits are drawn low enough that the judge's run clips: with limits up to 0.4, these
    seeds drew a start and batches whose gradients never reached the limit, and an answer that
    clipped nothing passed."""
    never = STEP.format(
        clip="norm = torch.nn.utils.clip_grad_norm_(model.parameters(), float('inf'))\n"
        "    optimizer.step()\n    return norm.item()\n"
    )
    ref = CATALOG.drill("training-run/clip-in-the-step")
    for seed in (16, 33, 34):
        g = grade(ref, never, seed, sandbox)
        assert not g.correct and "was not clipped before the update" in g.feedback, (
            seed,
            g.feedback,
        )
