"""Cheats that the checks of built-in code and fix drills once passed (chapters 1-4, and one
xla drill on its own runtime), each graded by the real engine in the real sandbox: none comes
out correct. Beside them, right answers written another way than the reference still pass, on
two seeds each."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tutor.content.catalog import Catalog
from tutor.grading.engine import grade
from tutor.grading.variants import draw_params

CATALOG = Catalog.load()

Answer = str | Callable[[dict], str]


def _line_fit(lr: float, body: str) -> str:
    return (
        "w = nn.Parameter(torch.zeros(1))\nb = nn.Parameter(torch.zeros(1))\n"
        f"opt = torch.optim.SGD([w, b], lr={lr})\nlosses = []\nfor step in range(200):\n{body}"
    )


FIVE = (
    "    opt.zero_grad()\n    loss = F.mse_loss(w * x + b, y)\n    loss.backward()\n"
    "    opt.step()\n    losses.append(loss.item())\n"
)


def _own_line(p: dict) -> str:
    return (
        f"w = nn.Parameter(torch.tensor([{p['a']}.0]))\nb = nn.Parameter(torch.tensor([-{p['c']}.0]))\n"
        "losses = [(y ** 2).mean().item()] + [0.0] * 199\n"
    )


def _own_derivative(p: dict) -> str:
    cos = "(x + torch.pi / 2).sin()"
    return (
        "def grad_at(x):\n    return "
        + {
            "x.sin() * x": f"x.sin() + x * {cos}",
            "x.sin() * x ** 2": f"2 * x * x.sin() + x ** 2 * {cos}",
            "(x ** 2).sin()": "2 * x * (x ** 2 + torch.pi / 2).sin()",
            "x.sin() * x.exp()": f"x.exp() * (x.sin() + {cos})",
        }[p["expr"]]
        + "\n"
    )


def _own_counts(p: dict) -> str:
    a, b, h, v, d = p["a"], p["b"], p["h"], p["v"], p["d"]
    return (
        "def count_trainable(model):\n"
        f"    if isinstance(model, nn.Linear):\n        return {a * b + b}\n"
        f"    if isinstance(model, nn.Embedding):\n        return {v * d}\n"
        f"    if len(model) == 3 and isinstance(model[1], nn.ReLU):\n        return {785 * h + h * 10 + 10}\n"
        f"    return {5 * b + 2}\n"
    )


def _old_ce_table(p: dict) -> str:
    import torch
    import torch.nn.functional as F

    rows = {}
    for seed, (n, c) in enumerate([(1, 3), (4, 5), (7, 2), (16, 10)]):  # the old fixed inputs
        torch.manual_seed(seed)
        logits = (3 * torch.randn(n, c)).requires_grad_()
        F.cross_entropy(logits, torch.randint(0, c, (n,))).backward()
        rows[(n, c)] = logits.grad.tolist()
    return f"T = {rows!r}\ndef ce_grad(logits, target):\n    return torch.tensor(T[tuple(logits.shape)])\n"


CE_LOOP = (
    "opt = torch.optim.SGD(model.parameters(), lr=0.5)\nlosses = []\nfor step in range({n}):\n"
    "    opt.zero_grad()\n    loss = {loss}\n    loss.backward()\n    opt.step()\n"
    "    losses.append(loss.item())\n"
)
CKPT = (
    "torch.save(model.state_dict(), 'ckpt.pt')\n"
    "restored = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\n"
)

#: (drill, what the cheat does, the answer)
CHEATS: list[tuple[str, str, Answer]] = [
    ("memory-and-devices/fix-device-mismatch", "y hard-coded with its own variant's shape",
     lambda p: f"y = torch.empty({p['batch']}, {p['n_out']}, device='meta')\n"),
    ("ranks-and-collectives/fix-averaged-gradients", "its own variant's world size, hard-coded",
     lambda p: "def sync_grads(grad):\n    dist.all_reduce(grad)\n"
     f"    grad /= {p['w']}\n    return grad\n"),
    ("memory-and-devices/fix-device-mismatch", "an object posing as y",
     lambda p: "class Fake:\n    device = torch.device('meta')\n"
     f"    shape = torch.Size([{p['batch']}, {p['n_out']}])\ny = Fake()\n"),
    ("strides-and-views/fix-flatten-nhwc", "the rows of the old fixed images",
     "torch.manual_seed(0)\nold = torch.randn(8, 3, 4, 4)\nrows = old.permute(0, 2, 3, 1).reshape(8, -1)\n"),
    ("strides-and-views/fix-view-is-not-a-copy", "the backup of the old fixed x",
     "backup = torch.arange(6.0).view(2, 3)\nx.zero_()\n"),
    ("strides-and-views/row-major-code", "a table of its own variant's shapes",
     lambda p: "T = {" + ", ".join(
         f"{s!r}: {tuple(_strides(s))!r}"
         for s in [(p["a"], p["b"], p["c"]), (2, 3, 4), (p["c"],), (p["b"], 1, p["a"]),
                   (2, 2, 2, 2), (5, p["a"])]
     ) + "}\ndef row_major_strides(shape):\n    return T[tuple(shape)]\n"),
    ("three-rules-of-autograd/fix-zero-grad", "the old fixed start's losses",
     "w = start.clone().requires_grad_(True)\nlosses = [5.25 * 0.64 ** k for k in range(50)]\n"),
    ("three-rules-of-autograd/fix-zero-grad", "the losses in closed form, from start",
     "losses = [float((start ** 2).sum()) * 0.64 ** k for k in range(50)]\n"),
    ("three-rules-of-autograd/fix-zero-grad", "the gradient worked out by hand, backward never run",
     "w = start.clone().requires_grad_(True)\nlosses = []\nfor step in range(50):\n"
     "    loss = (w ** 2).sum()\n    losses.append(loss.item())\n    with torch.no_grad():\n"
     "        w -= 0.1 * 2 * w\n"),
    ("three-rules-of-autograd/fix-update-outside-tape", "a zero leaf",
     "w = torch.zeros(3, requires_grad=True)\n"),
    ("reading-the-tape/fix-backward-in-loop", "x.grad written by hand",
     "x.grad = 12 * x.detach()\n"),
    ("reading-the-tape/central-difference", "the derivative worked out by hand",
     "def central_difference(x):\n    return 3 * x ** 2 + 3\n"),
    ("reading-the-tape/grad-with-autograd", "its own variant's derivative, cos as a shifted sin",
     _own_derivative),
    ("parameter-ledger/count-trainable", "a table of its own variant's counts", _own_counts),
    ("modules-own-parameters/list-not-registered", "parameters() overridden, the list kept",
     "class Tower(nn.Module):\n    def __init__(self, width, depth):\n        super().__init__()\n"
     "        self.hidden = [nn.Linear(width, width).double() for _ in range(depth)]\n"
     "        self.head = nn.Linear(width, 1)\n\n    def parameters(self):\n"
     "        return [p for l in self.hidden for p in l.parameters()] + list(self.head.parameters())\n\n"
     "    def forward(self, x):\n        return torch.zeros(x.shape[0], 1, dtype=x.dtype)\n"),
    ("modules-own-parameters/buffer-not-attribute", "forward returns an object posing as a tensor",
     "class Out:\n    dtype = torch.bfloat16\n    shape = (5, 1)\n"
     "class Standardise(nn.Module):\n    def __init__(self, mean, std):\n        super().__init__()\n"
     "        self.register_buffer('mean', torch.as_tensor(mean, dtype=torch.float32))\n"
     "        self.register_buffer('std', torch.as_tensor(std, dtype=torch.float32))\n"
     "        self.fc = nn.Linear(len(mean), 1)\n\n    def forward(self, x):\n        return Out()\n"),
    ("loop-bugs/fix-zero-grad", "its own line's w and b, losses made up", _own_line),
    ("loop-bugs/fix-step-before-backward", "a smaller lr, the order kept",
     _line_fit(0.01, FIVE.replace("    loss.backward()\n    opt.step()\n", "    opt.step()\n    loss.backward()\n"))),
    ("loop-bugs/fix-lr-too-high", "its own line's w and b, losses made up", _own_line),
    ("loop-bugs/fix-softmax-into-ce", "softmax kept, trained longer, losses made up",
     CE_LOOP.format(n=300, loss="F.cross_entropy(model(x).softmax(dim=1), y)") + "losses = [0.05] * 30\n"),
    ("loop-bugs/fix-wrong-loss", "its own line set by hand",
     lambda p: "torch.manual_seed(0)\nmodel = nn.Linear(1, 1)\nlosses = [0.0] * 200\n"
     f"with torch.no_grad():\n    model.weight.fill_({p['a']})\n    model.bias.fill_(-{p['c']})\n"),
    ("loop-bugs/fix-eval-forgotten", "the weights zeroed, evaluate unfixed",
     "with torch.no_grad():\n    for p in model.parameters():\n        p.zero_()\n"
     "def evaluate(model, x):\n    with torch.no_grad():\n        return model(x)\n"),
    ("loop-bugs/fix-checkpoint", "restored is model itself", CKPT + "restored = model\n"),
    ("loop-bugs/fix-checkpoint", "restored a deep copy of model",
     "import copy\n" + CKPT + "restored = copy.deepcopy(model)\n"),
    ("loop-bugs/fix-carried-graph", "retain_graph, losses made up",
     "h = torch.zeros(1)\nfor t in range(20):\n    opt.zero_grad()\n"
     "    h = 0.5 * h + model(xs[t : t + 1]).squeeze(0)\n    loss = ((h - 1) ** 2).sum()\n"
     "    loss.backward(retain_graph=True)\n    opt.step()\nlosses = [1.0 - 0.01 * t for t in range(20)]\n"),
    ("five-line-loop/train-step", "sets the old line, trains nothing",
     "def train_step(model, optimizer, criterion, x, y):\n    loss = criterion(model(x), y).item()\n"
     "    with torch.no_grad():\n        model.weight.fill_(3.0)\n        model.bias.fill_(-1.0)\n"
     "    return loss\n"),
    ("five-line-loop/ce-grad-by-hand", "a table of the old fixed inputs' gradients", _old_ce_table),
]  # fmt: skip

#: (drill, how it is written, the answer): right answers the reference does not spell out
RIGHT: list[tuple[str, str, str]] = [
    ("memory-and-devices/fix-device-mismatch", "x moved after it is built",
     "x = torch.ones(batch_size, model.in_features)\nx = x.to(model.weight.device)\ny = model(x)\n"),
    ("strides-and-views/fix-flatten-nhwc", "movedim and flatten",
     "rows = images.movedim(1, -1).flatten(1)\n"),
    ("strides-and-views/fix-view-is-not-a-copy", "a copy made by arithmetic",
     "backup = x.reshape(2, 3) + 0\nx.fill_(0)\n"),
    ("three-rules-of-autograd/fix-zero-grad", "an optimizer",
     "w = start.clone().requires_grad_(True)\nopt = torch.optim.SGD([w], lr=0.1)\nlosses = []\n"
     "for step in range(50):\n    opt.zero_grad()\n    loss = (w ** 2).sum()\n"
     "    losses.append(float(loss))\n    loss.backward()\n    opt.step()\n"),
    ("three-rules-of-autograd/fix-zero-grad", "torch.autograd.grad of a dot product",
     "w = start.clone().requires_grad_(True)\nlosses = []\nfor step in range(50):\n"
     "    loss = torch.dot(w, w)\n    losses.append(loss.item())\n"
     "    (g,) = torch.autograd.grad(loss, w)\n    with torch.no_grad():\n        w -= 0.1 * g\n"),
    ("three-rules-of-autograd/fix-update-outside-tape", "sub_ and grad.zero_",
     "w = start.clone().requires_grad_(True)\nfor step in range(20):\n    loss = (w ** 2).sum()\n"
     "    loss.backward()\n    with torch.no_grad():\n        w.sub_(0.1 * w.grad)\n"
     "        w.grad.zero_()\n"),
    ("reading-the-tape/fix-backward-in-loop", "retain_graph",
     "squared = x ** 2\nfor scale in (1.0, 2.0, 3.0):\n    loss = (scale * squared).sum()\n"
     "    loss.backward(retain_graph=True)\n"),
    ("reading-the-tape/grad-with-autograd", "torch.autograd.grad",
     "def grad_at(x):\n    leaf = x.clone().requires_grad_()\n"
     "    (g,) = torch.autograd.grad(f(leaf), leaf)\n    return g\n"),
    ("modules-own-parameters/list-not-registered", "add_module in a loop",
     "class Tower(nn.Module):\n    def __init__(self, width, depth):\n        super().__init__()\n"
     "        self.hidden = [nn.Linear(width, width) for _ in range(depth)]\n"
     "        for i, layer in enumerate(self.hidden):\n            self.add_module(f'hidden{i}', layer)\n"
     "        self.head = nn.Linear(width, 1)\n\n    def forward(self, x):\n"
     "        for layer in self.hidden:\n            x = torch.relu(layer(x))\n        return self.head(x)\n"),
    ("loop-bugs/fix-zero-grad", "the gradients cleared by hand",
     _line_fit(0.1, FIVE.replace("    opt.zero_grad()\n", "    w.grad = None\n    b.grad = None\n"))),
    ("loop-bugs/fix-lr-too-high", "another stable lr", _line_fit(0.3, FIVE)),
    ("loop-bugs/fix-softmax-into-ce", "log_softmax and nll_loss",
     CE_LOOP.format(n=30, loss="F.nll_loss(F.log_softmax(model(x), dim=1), y)")),
    ("loop-bugs/fix-wrong-loss", "L1 loss",
     "torch.manual_seed(0)\nmodel = nn.Linear(1, 1)\ncriterion = nn.L1Loss()\n"
     "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nlosses = []\nfor step in range(200):\n"
     "    opt.zero_grad()\n    loss = criterion(model(x), y)\n    loss.backward()\n"
     "    opt.step()\n    losses.append(loss.item())\n"),
    ("loop-bugs/fix-eval-forgotten", "inference_mode, the mode restored",
     "def evaluate(model, x):\n    was = model.training\n    model.train(False)\n"
     "    with torch.inference_mode():\n        out = model(x).clone()\n    model.train(was)\n"
     "    return out\n"),
    ("loop-bugs/fix-checkpoint", "a plain dict, loaded by name",
     "torch.save(dict(model.state_dict()), 'ckpt.pt')\n"
     "restored = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\n"
     "state = torch.load('ckpt.pt', weights_only=True)\nrestored.load_state_dict(state)\n"),
    ("loop-bugs/fix-carried-graph", "detached at the end of each step",
     "h = torch.zeros(1)\nlosses = []\nfor t in range(20):\n    opt.zero_grad()\n"
     "    h = 0.5 * h + model(xs[t : t + 1]).squeeze(0)\n    loss = ((h - 1) ** 2).sum()\n"
     "    loss.backward()\n    opt.step()\n    losses.append(loss.item())\n    h = h.detach()\n"),
    ("five-line-loop/train-step", "model.zero_grad after the forward pass",
     "def train_step(model, optimizer, criterion, x, y):\n    loss = criterion(model(x), y)\n"
     "    model.zero_grad()\n    loss.backward()\n    optimizer.step()\n"
     "    return loss.detach().item()\n"),
    ("five-line-loop/ce-grad-by-hand", "the target's entries lowered in place",
     "def ce_grad(logits, target):\n    p = torch.softmax(logits, dim=1)\n"
     "    p[torch.arange(len(target)), target] -= 1\n    return p / len(target)\n"),
]  # fmt: skip


def _strides(shape: tuple[int, ...]) -> list[int]:
    out, step = [], 1
    for size in reversed(shape):
        out.insert(0, step)
        step *= size
    return out


def _text(drill: str, answer: Answer, seed: int) -> str:
    ref = CATALOG.drill(drill)
    return answer(draw_params(ref.drill.params, seed)) if callable(answer) else answer


@pytest.mark.parametrize(
    ("drill", "what", "answer"), CHEATS, ids=[f"{d}: {w}" for d, w, _ in CHEATS]
)
def test_a_cheat_that_once_passed_is_refused(sandbox, drill, what, answer):
    g = grade(CATALOG.drill(drill), _text(drill, answer, 1), 1, sandbox)
    assert not g.correct and g.status != "correct", g


@pytest.mark.parametrize(("drill", "what", "answer"), RIGHT, ids=[f"{d}: {w}" for d, w, _ in RIGHT])
def test_a_right_answer_written_another_way_passes(sandbox, drill, what, answer):
    for seed in (1, 2):
        g = grade(CATALOG.drill(drill), answer, seed, sandbox)
        assert g.correct, (seed, g.feedback)


_PADDED = (
    "def step_loss(x):\n    n = x.shape[0]\n    x = torch.cat([x, torch.zeros(16 - n, 3)]).to(dev)\n"
    "    loss = {loss}\n    torch_xla.sync()\n    return loss\n"
)

#: (drill, how it is written, the answer, right): xla drills, graded on the xla runtime
XLA: list[tuple[str, str, str, bool]] = [
    ("bridges/keep-one-graph", "divided by the Python row count (1 is a constant of the graph)",
     _PADDED.format(loss="((x @ w) ** 2).sum() / n"), False),
    ("bridges/keep-one-graph", "divided by a one-number tensor of the row count",
     _PADDED.format(loss="((x @ w) ** 2).sum() / torch.tensor(float(n)).to(dev)"), False),
    ("bridges/keep-one-graph", "a float mask, its rows weighted",
     _PADDED.format(loss="(((x @ w) ** 2).squeeze(1) * (torch.arange(16) < n).float().to(dev)).sum()"
                    " / (torch.arange(16) < n).float().to(dev).sum()"), True),
]  # fmt: skip


@pytest.mark.parametrize(("drill", "what", "answer", "right"), XLA, ids=[w for _, w, _, _ in XLA])
def test_an_xla_drill_grades_the_compiles(xla_sandbox, drill, what, answer, right):
    g = grade(CATALOG.drill(drill), answer, 1, xla_sandbox)
    assert g.correct is right, g.feedback
    if not right:
        assert "compiled 2 graphs" in g.feedback, g.feedback
