"""The numbers COURSE.md lists for chapters 3 and 4, checked twice.

Each number must (1) appear in the recorded output of a lesson snippet, and (2) come out of
that same snippet again when real torch runs it now in the sandbox. The drills that teach a
number are checked the same way: their setup and ask (or their lines) run in the sandbox with
the params that reproduce the course's example, and the truth torch computes is the number.
Nothing here types an expected output that torch did not print.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.lesson_outputs import normalise
from tutor.content.lessons import load_lesson
from tutor.content.loader import load_pack
from tutor.content.models import OrderDrill, PredictDrill

#: under xdist, with the other tests that read the session's snippet runs (``course``)
pytestmark = pytest.mark.xdist_group("course")

ROOT = Path(__file__).resolve().parents[2]
LESSONS = {3: ROOT / "lessons" / "03-modules.md", 4: ROOT / "lessons" / "04-loop.md"}
DRILLS = ROOT / "drills"

# (chapter, what COURSE.md says, the text torch prints for it in the lesson)
FACTS: list[tuple[int, str, str]] = [
    (3, "Linear(4, 3) has 15 parameters", "parameters: 15"),
    (3, "nn.Linear(784, 256): a 256x784 weight and a 256 bias", "weight (256, 784) bias (256,)"),
    (3, "nn.Linear(784, 256) has 200,960 parameters", "200,960 parameters"),
    (3, "Conv2d = in*out*k*k + out (3*16*9 + 16)", "Conv2d(3, 16, 3)         448"),
    (3, "Conv2d = in*out*k*k + out (16*32*25 + 32)", "Conv2d(16, 32, 5)     12,832"),
    (3, "BatchNorm1d(f) = 2f", "BatchNorm1d(256)         512"),
    (3, "LayerNorm(d) = 2d", "LayerNorm(128)           256"),
    (3, "Embedding = vocab*dim", "Embedding(1000, 64)   64,000"),
    (3, "ReLU has no parameters", "ReLU()                     0"),
    (3, "GELU has no parameters", "GELU()                     0"),
    (3, "Dropout has no parameters", "Dropout(0.2)               0"),
    (3, "BatchNorm buffers are not parameters", "parameters: ['weight', 'bias']"),
    (
        3,
        "BatchNorm buffers are in state_dict",
        "state_dict: ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']",
    ),
    (3, "MLP(784, 256, 10) = 203,530", "total 203,530"),
    (3, "MLP layer 2 = 2,570 (2,560 + 10)", "2.weight  (10, 256)       2,560"),
    (3, "784-256-128-10 with dropout = 235,146", "with dropout:      235,146"),
    (3, "with BatchNorm1d after each hidden layer = 235,914", "after hidden: 235,914"),
    (3, "the residual net = 68,362", "total:     68,362"),
    (3, "GPT-2 small is ~124M parameters", "(about 124M)"),
    (3, "GPT-2 small is ~527x the MLP", "using the rounded 124M: 527x"),
    (3, "forward of Linear(4, 3) by hand matches the layer", "close?   True"),
    (3, "64x784x256 multiply-adds for layer 1", "Linear(784, 256):   12,845,056"),
    (3, "which is about 12.8M", "first layer alone: 12.8M"),
    (3, "15,024,128 multiply-adds for the stack", "whole stack, batch of 64:  15,024,128"),
    (3, "call model(x), not model.forward(x): hooks", "hook calls after layer.forward(x): 1"),
    (4, "backward() adds: the third step applies g1+g2+g3", "w.grad = 7.0"),
    (4, "overfit one batch: initial loss 17.875", "initial loss: 17.875"),
    (4, "healthy run reaches w = 3, b = -1", "w = 3.0000, b = -1.0000"),
    (4, "no zero_grad: 17.875 -> 7.232 -> 0.198", "first losses [17.875, 7.232, 0.198,"),
    (4, "no zero_grad: rings between ~0.066 and ~19.7", "swings between 0.066 and 19.7"),
    (4, "lr 1.5 explodes", "lr 1.5: final loss nan"),
    (
        4,
        "Dropout scales kept units by 1/(1-p) in train",
        "kept units are scaled by 1/(1 - p) = 1.25",
    ),
    (
        4,
        "Dropout is the identity in eval",
        "eval:  [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]",
    ),
    (4, "BatchNorm updates running stats in train", "running_mean now:  0.25"),
    (4, "CE gradient on logits is p - y", "p - y:    [-0.2144, 0.1753, 0.0391]"),
    (4, "CE gradient (autograd side)", "autograd: [-0.2144, 0.1753, 0.0391]"),
    (4, "softmax into CE: the loss floor rises", "CE(softmax(logits)):  0.5514"),
    (4, "BCEWithLogits takes logits", "BCEWithLogits: 200.0"),
    (4, "SGD momentum: w1 = 0.498", "w1 = 0.498"),
    (4, "SGD momentum: w2 = 0.4942", "w2 = 0.4942"),
    (4, "the step settles at lr*g/(1-beta) = 0.02", "step 100: 0.0200"),
    (4, "Adam's first step is about lr", "gradient    50.0: first step 0.0100"),
    (4, "device mismatch via the meta device", "is not on the expected device cpu!"),
    (4, "backward twice", "Trying to backward through the graph a second time"),
    (4, "checkpoint: state_dict + weights_only=True", "<All keys matched successfully>"),
    (4, "torch.save(model) pickles the class path", "Unsupported global: GLOBAL shapes_v1.Net"),
    (4, "the pickle breaks when the class is refactored", "Can't get attribute 'Net'"),
    (4, "scheduler.step() after optimizer.step()", "before `optimizer.step()`."),
    (4, "float16's smallest normal is about 6.1e-5", "float16 smallest normal: 6.10e-05"),
    (4, "GradScaler skips overflowing steps, halves the scale", "scale 32768.0"),
    (4, "Adam's moments for the MLP: 1,881,168 B = 1.79 MiB", "1,881,168 B = 1.79 MiB"),
    (4, "16 B/param", "(weights + grads + two moments): 16"),
    (4, "a 7B model at 16 B/param needs 112 GB", "at 16 B/param: 112 GB"),
]


@pytest.mark.parametrize(("chapter", "fact", "needle"), FACTS, ids=[f[1] for f in FACTS])
def test_course_number_recorded_and_reproduced(course, chapter, fact, needle):
    course.check_fact(LESSONS[chapter], fact, needle)


def test_lessons_record_the_torch_version(course):
    for path in LESSONS.values():
        course.check_recorded(path)


def test_lessons_link_their_labs():
    text3 = LESSONS[3].read_text()
    text4 = LESSONS[4].read_text()
    assert "](lab:ledger?expr=nn.Sequential(nn.Linear(784,256)" in text3
    assert "](lab:race)" in text3
    assert "](lab:loop?problem=line&bug=no_zero_grad)" in text4
    assert "](lab:logits)" in text4
    assert "](lab:checkpoint)" in text4


# --- drills: their truths are the course's numbers ------------------------------------------


def _drill(pack_file: str, drill_id: str):
    pack = load_pack(DRILLS / pack_file)
    return next(d for d in pack.drills if d.id == drill_id)


PREDICT_CASES = [
    ("03-ledger.yaml", "linear-params", {"n_in": 4, "n_out": 3}, "15"),
    ("03-ledger.yaml", "conv2d-params", {"c_in": 3, "c_out": 16, "k": 3}, "448"),
    ("03-ledger.yaml", "batchnorm-params", {"f": 256}, "512"),
    ("03-ledger.yaml", "layernorm-params", {"d": 128}, "256"),
    ("03-ledger.yaml", "embedding-params", {"vocab": 1000, "dim": 64}, "64000"),
    ("03-ledger.yaml", "stateless-layers", {"layer": "nn.GELU()"}, "0"),
    ("03-ledger.yaml", "stateless-layers", {"layer": "nn.LayerNorm(8)"}, "16"),
    ("03-ledger.yaml", "mlp-params", {"n_in": 784, "hidden": 256, "classes": 10}, "203530"),
    ("03-ledger.yaml", "mlp-batchnorm-params", {"h1": 256, "h2": 128}, "235914"),
    ("03-ledger.yaml", "residual-params", {"d": 128, "depth": 4}, "68362"),
    (
        "03-ledger.yaml",
        "linear-multiply-adds",
        {"n_in": 784, "n_out": 256, "batch": 64},
        "12845056",
    ),
    ("04-loop.yaml", "accumulated-grad", {"a": 1, "b": 2, "c": 4}, "7.0"),
    ("04-loop.yaml", "overfit-initial-loss", {"k": 3, "c": -1}, "17.875"),
    ("04-loop.yaml", "missing-bias", {"k": 3, "c": -1}, "1.0"),
    ("04-loop.yaml", "momentum-two-steps", {"lr": 0.01, "g": 0.2}, "0.4942"),
    ("04-loop.yaml", "momentum-terminal-step", {"lr": 0.01, "beta": 0.9, "g": 0.2}, "0.02"),
    ("04-loop.yaml", "adam-first-step", {"w0": 1, "lr": 0.01, "g": 200.0}, "0.99"),
    ("04-loop.yaml", "adam-first-step", {"w0": 1, "lr": 0.01, "g": 0.01}, "0.99"),
    ("04-loop.yaml", "adam-first-step", {"w0": 1, "lr": 0.01, "g": -40.0}, "1.01"),
    ("04-loop.yaml", "dropout-scale", {"p": 0.2}, "1.25"),
    ("04-loop.yaml", "float16-smallest-normal", {"g": 1.0e-8, "scale": 1}, "True"),
    ("04-loop.yaml", "float16-smallest-normal", {"g": 1.0e-8, "scale": 65536}, "False"),
    ("04-loop.yaml", "softmax-floor", {"k": 2}, "0.5514"),
]


@pytest.mark.parametrize(
    ("pack_file", "drill_id", "params", "printed"),
    PREDICT_CASES,
    ids=[f"{c[1]}-{c[3]}" for c in PREDICT_CASES],
)
def test_drill_truth_is_the_course_number(course, pack_file, drill_id, params, printed):
    drill = course.drill(pack_file, drill_id)
    assert isinstance(drill, PredictDrill)
    assert course.truth(drill, params, timeout=20.0) == printed


def test_five_lines_order_drill_trains_in_that_order(sandbox):
    """The order drill's lines, run in the given order, fit the line; swapped, they do not."""
    drill = _drill("04-loop.yaml", "five-lines")
    assert isinstance(drill, OrderDrill)
    assert drill.lines == [
        "optimizer.zero_grad()",
        "out = model(x)",
        "loss = criterion(out, y)",
        "loss.backward()",
        "optimizer.step()",
    ]

    def final_loss(lines: list[str]) -> float:
        body = "\n".join("    " + line for line in lines)
        code = (
            "x = torch.tensor([-2, -1.5, -1, -0.5, 0.5, 1, 1.5, 2]).unsqueeze(1)\n"
            "y = 3 * x - 1\n"
            "model = nn.Linear(1, 1)\n"
            "criterion = nn.MSELoss()\n"
            "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
            f"for _ in range(200):\n{body}\n"
            "print(criterion(model(x), y).item())\n"
        )
        result = sandbox.run(code, timeout=20.0, memory_mb=2048)
        assert result.ok, result.reason
        return float(result.stdout.split()[-1])

    assert final_loss(drill.lines) < 1e-6
    swapped = drill.lines[:3] + [drill.lines[4], drill.lines[3]]
    assert final_loss(swapped) > 1.0


def test_layers_by_size_order_matches_real_counts(sandbox):
    drill = _drill("03-ledger.yaml", "layers-by-size")
    assert isinstance(drill, OrderDrill)
    code = "".join(f"print(sum(p.numel() for p in {line}.parameters()))\n" for line in drill.lines)
    result = sandbox.run(code, timeout=20.0, memory_mb=2048)
    assert result.ok, result.reason
    counts = [int(v) for v in result.stdout.split()]
    assert counts == sorted(counts) and len(set(counts)) == len(counts), counts


def test_quiz_drills_per_chapter():
    """Each chapter marks 3-5 choice/predict drills as its quiz, and has every kind."""
    for chapter, files in {
        3: ["03-ledger.yaml", "03-modules.yaml"],
        4: ["04-loop.yaml", "04-bugs.yaml"],
    }.items():
        drills = [d for f in files for d in load_pack(DRILLS / f).drills]
        quiz = [d for d in drills if d.quiz]
        assert 3 <= len(quiz) <= 5, (chapter, [d.id for d in quiz])
        assert all(d.kind in ("choice", "predict") for d in quiz)
        assert {d.kind for d in drills} == {"predict", "order", "choice", "code", "fix"}
        assert len(drills) >= 15


def test_quiz_answers_state_the_course_numbers(course):
    """The choice answers that quote a number quote the one torch printed in the lesson."""
    drill = _drill("03-ledger.yaml", "linear-784-256")
    correct = next(c.answer for c in drill.choices if c.correct)
    assert "256×784" in correct and "200,960" in correct
    course.snippet(LESSONS[3], "200,960 parameters")
    course.snippet(LESSONS[3], "weight (256, 784) bias (256,)")
    third = _drill("04-loop.yaml", "third-step-applies")
    assert next(c.answer for c in third.choices if c.correct) == "g1 + g2 + g3"
    course.snippet(LESSONS[4], "sum of the three gradients: 7.0")


def test_prose_numbers_have_a_snippet():
    """Every course number the lesson prose quotes is printed by one of its snippets."""
    # (as the prose writes it, as a snippet prints it)
    quoted = {
        3: [
            ("15", "parameters: 15"),
            ("200,960", "200,960"),
            ("2,570", "layer 2: 2,570"),
            ("203,530", "203,530"),
            ("235,146", "235,146"),
            ("235,914", "235,914"),
            ("68,362", "68,362"),
            ("16,768", "16,768"),
            ("1,290", "1,290"),
            ("768", "768 = "),
            ("770", "770 values"),
            ("527", "527x"),
            ("529", "529.2x"),
            ("12.8M", "12.8M"),
            ("15,024,128", "15,024,128"),
            ("448", "448"),
            ("12,832", "12,832"),
            ("512", "512"),
            ("64,000", "64,000"),
        ],
        4: [
            ("17.875", "17.875"),
            ("7.232", "7.232"),
            ("0.198", "0.198"),
            ("0.066", "0.066"),
            ("19.7", "19.7"),
            ("0.498", "w1 = 0.498"),
            ("0.4942", "w2 = 0.4942"),
            ("0.02", "= 0.02"),
            ("1,881,168", "1,881,168 B"),
            ("1.79 MiB", "1.79 MiB"),
            ("112 GB", "112 GB"),
            ("6.1e-5", "6.10e-05"),
            ("1.25", "= 1.25"),
            ("0.55", "0.5514"),
            ("200", "BCEWithLogits: 200.0"),
            ("30", "grad tensor([30.])"),
        ],
    }
    for chapter, pairs in quoted.items():
        lesson = load_lesson(LESSONS[chapter])
        outputs = "\n".join(normalise(s.output) or "" for s in lesson.snippets)
        for prose, printed in pairs:
            assert prose in lesson.body, f"lesson {chapter} prose no longer quotes {prose}"
            assert printed in outputs, f"lesson {chapter}: no snippet prints {printed!r}"


def test_drill_prompts_quote_numbers_torch_printed():
    """Numbers quoted in drill prompts and explanations are ones a lesson snippet printed."""
    quoted = {
        ("04-loop.yaml", "third-step-applies"): ["17.875", "7.232", "0.198", "0.066", "19.7"],
        ("04-loop.yaml", "overfit-initial-loss"): ["17.875"],
        ("04-loop.yaml", "momentum-two-steps"): ["0.498", "0.4942", "0.02"],
        ("04-loop.yaml", "adam-moment-bytes"): ["235,146", "1,881,168", "1.79 MiB", "112 GB"],
        ("03-ledger.yaml", "mlp-params"): ["200,960", "2,570", "203,530"],
        ("03-ledger.yaml", "mlp-batchnorm-params"): ["235,146", "235,914"],
        ("03-ledger.yaml", "residual-params"): ["16,768", "1,290", "68,362"],
        ("03-ledger.yaml", "linear-multiply-adds"): ["12.8M", "15,024,128"],
        ("03-ledger.yaml", "linear-params"): ["15"],
    }
    outputs = {
        chapter: "\n".join(normalise(s.output) or "" for s in load_lesson(path).snippets)
        for chapter, path in LESSONS.items()
    }
    for (pack_file, drill_id), numbers in quoted.items():
        drill = _drill(pack_file, drill_id)
        text = f"{drill.prompt}\n{drill.explain}"
        for number in numbers:
            assert number in text, f"{drill_id} no longer quotes {number}"
            assert any(number in out for out in outputs.values()), f"no snippet prints {number}"
