"""Right answers pass the reading: every reference of the built-in packs, the test packs and the
docs, every starter, and answers a learner would write instead, in both resolver modes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tutor.content.loader import load_pack
from tutor.content.models import CodeDrill
from tutor.grading.variants import draw_params, render
from tutor.probes.reading import Refusal, read_answer, static_resolver
from tutor.probes.reading_torch import TorchResolver

ROOT = Path(__file__).parents[2]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)


def _doc_drills(tmp: Path) -> list[tuple[str, CodeDrill]]:
    text = (ROOT / "docs" / "packs.md").read_text(encoding="utf-8")
    found = []
    for i, (info, body) in enumerate(FENCE.findall(text)):
        if info.strip() == "yaml drill":
            body = "pack: doc\ntitle: Doc\nchapter: 1\ndrills:\n" + "".join(
                "  " + line + "\n" for line in body.splitlines()
            )
        elif info.strip() != "yaml" or "drills:" not in body:
            continue
        path = tmp / f"doc{i}.yaml"
        path.write_text(body, encoding="utf-8")
        pack = load_pack(path)
        found += [(f"docs/{d.id}", d) for d in pack.drills if isinstance(d, CodeDrill)]
    return found


def _drills(tmp: Path) -> dict[str, CodeDrill]:
    paths = sorted((ROOT / "drills").glob("*.yaml"))
    paths += sorted((ROOT / "tests" / "grading" / "packs").glob("*.yaml"))
    found: dict[str, CodeDrill] = {}
    for path in paths:
        pack = load_pack(path)
        found |= {pack.full_id(d): d for d in pack.drills if isinstance(d, CodeDrill)}
    return found | dict(_doc_drills(tmp))


DRILLS = _drills(Path(__import__("tempfile").mkdtemp()))


def read(drill: CodeDrill, code: str, resolver_of) -> list[Refusal]:
    params = draw_params(drill.params, 0)
    setup = drill.setup_code(params)
    code = render(code, params)
    return read_answer(code, setup=setup, forbid=list(drill.forbid), allow=list(drill.allow),
                       max_lines=drill.max_lines, resolver=resolver_of(code, setup))  # fmt: skip


def _static(code: str, setup: str):
    return static_resolver(code, setup)


def _torch(code: str, setup: str):
    return TorchResolver()


MODES = {"pre-pass": _static, "judge": _torch}


def test_the_corpus_holds_every_built_in_code_drill():
    assert len([k for k in DRILLS if not k.startswith(("docs/", "grading-"))]) >= 60
    assert any(k.startswith("docs/") for k in DRILLS)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("full_id", sorted(DRILLS))
def test_every_reference_passes_the_reading(full_id, mode):
    drill = DRILLS[full_id]
    assert [str(r) for r in read(drill, drill.reference, MODES[mode])] == []


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("full_id", sorted(DRILLS))
def test_every_starter_passes_the_reading(full_id, mode):
    drill = DRILLS[full_id]
    assert [str(r) for r in read(drill, drill.starter, MODES[mode])] == []


HONEST = [
    ("tensor-puzzles/reverse", "def reverse(x):\n    return x[torch.arange(len(x) - 1, -1, -1)]\n"),
    ("tensor-puzzles/identity",
     "def identity(n):\n    return torch.where(torch.arange(n)[:, None] == torch.arange(n), 1, 0)\n"),
    ("tensor-puzzles/first-evens", "def first_evens(n):\n    return torch.arange(n, dtype=torch.int64) * 2\n"),
    ("tensor-puzzles/first-evens", "def first_evens(n):\n    return torch.arange(0, 2 * n, 2)\n"),
    ("tensor-puzzles/tally", "def tally(a, j):\n    return (torch.arange(j) == a[:, None]).sum(0)\n"),
    ("tensor-puzzles/sign", "def sign(x):\n    return torch.where(x > 0, 1, torch.where(x < 0, -1, 0))\n"),
    ("tensor-puzzles/diagonal",
     "def diagonal(x):\n    i = torch.arange(x.shape[0])  # rows\n    return x[i, i]\n".replace(
         "    i = torch.arange(x.shape[0])  # rows\n    return x[i, i]\n",
         "    return x[torch.arange(len(x)), torch.arange(len(x))]\n")),
    ("grading-rules/counts", "def counts(a, j):\n    return (torch.arange(j) == a[:, None]).sum(0)\n"),
    ("five-line-loop/train-step",
     "def train_step(model, optimizer, criterion, x, y):\n    optimizer.zero_grad(set_to_none=True)\n"
     "    loss = criterion(model(x), y)\n    loss.backward()\n    optimizer.step()\n"
     "    return float(loss)\n"),
    ("five-line-loop/ce-grad-by-hand",
     "def ce_grad(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:\n"
     "    p = torch.softmax(logits, dim=1)\n"
     "    p[torch.arange(len(target)), target] -= 1\n    return p / len(target)\n"),
    ("modules-own-parameters/linear-forward",
     "def linear(x, weight, bias):\n    return torch.matmul(x, weight.t()) + bias\n"),
    ("strides-and-views/positions-as-rows",
     "def position_rows(x):\n    return x.transpose(1, 2).reshape(-1, x.shape[1])\n"),
    ("strides-and-views/row-major-code",
     "def row_major_strides(shape):\n    out = [1] * len(shape)\n"
     "    for i in range(len(shape) - 2, -1, -1):\n        out[i] = out[i + 1] * shape[i + 1]\n"
     "    return tuple(out)\n"),
    ("honest-clock/measurement-stats",
     "def per_call_stats(raw_times, number_per_run):\n"
     "    t = torch.tensor(raw_times, dtype=torch.float64) / number_per_run\n"
     "    q = torch.quantile(t, torch.tensor([0.25, 0.5, 0.75], dtype=torch.float64))\n"
     "    return q[1].item(), (q[2] - q[0]).item()\n"),
    ("loop-bugs/fix-lr-too-high",
     "import math\nw = nn.Parameter(torch.zeros(1))\nb = nn.Parameter(torch.zeros(1))\n"
     "opt = torch.optim.SGD([w, b], lr=0.15 * math.sqrt(1.0))\nlosses = []\nfor step in range(200):\n"
     "    opt.zero_grad()\n    loss = F.mse_loss(w * x + b, y)\n    loss.backward()\n"
     "    opt.step()\n    losses.append(loss.item())\n"),
    ("loop-bugs/fix-checkpoint",
     "import copy, os\npath = os.path.join('.', 'ckpt.pt')\ntorch.save(copy.deepcopy(model.state_dict()), path)\n"
     "restored = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\n"
     "restored.load_state_dict(torch.load(path))\n"),
    ("loop-bugs/fix-eval-forgotten",
     "@torch.no_grad()\ndef evaluate(model, x):\n    was = model.training\n    model.eval()\n"
     "    out = model(x)\n    model.train(was)\n    return out\n"),
    ("loader/window-dataset",
     "from torch.utils.data import DataLoader, Dataset\n\nclass Windows(Dataset):\n"
     "    def __init__(self, series, size):\n        super().__init__()\n"
     "        self.series, self.size = series, size\n\n    def __len__(self):\n"
     "        return len(self.series) - self.size\n\n    def __getitem__(self, i):\n"
     "        if not isinstance(i, int):\n            raise TypeError(type(i).__name__)\n"
     "        return self.series[i : i + self.size], self.series[i + self.size]\n"),
    ("loader/shard-the-stream",
     "class Records(IterableDataset):\n    def __init__(self, n):\n        self.n = n\n\n"
     "    def __iter__(self):\n        info = torch.utils.data.get_worker_info()\n"
     "        start, step = (0, 1) if info is None else (info.id, info.num_workers)\n"
     "        yield from range(start, self.n, step)\n"),
    ("guards/fix-one-compile",
     "cstep = torch.compile(step, backend=count)\nfor n in (3, 4, 5, 6):\n    x = torch.randn(n)\n"
     "    torch._dynamo.mark_dynamic(x, 0)\n    cstep(x)\n"),
    ("guards/counting-backend",
     "def count(gm, example_inputs):\n"
     "    sizes.append(len([n for n in gm.graph.nodes if n.op in ('call_function', 'call_method')]))\n"
     "    return gm\n"),
    ("graphs/export-any-batch",
     "from torch.export import Dim, export\nbatch = Dim('batch', min=1)\n"
     "ep = export(mlp, (torch.randn(3, 4),), dynamic_shapes=({0: batch},))\n"),
    ("graphs/op-histogram",
     "import collections\n\ndef op_histogram(model, x):\n"
     "    ep = torch.export.export(model, (x,)).run_decompositions()\n"
     "    return dict(collections.Counter(str(n.target) for n in ep.graph.nodes if n.op == 'call_function'))\n"),
    ("graphs/op-histogram",
     "@torch.library.custom_op('mylib::twice', mutates_args=())\ndef twice(x: torch.Tensor) -> torch.Tensor:\n"
     "    return x * 2\n\n@twice.register_fake\ndef _(x):\n    return torch.empty_like(x)\n\n"
     "def op_histogram(model, x):\n    ep = torch.export.export(model, (x,)).run_decompositions()\n"
     "    found = {}\n    for n in ep.graph.nodes:\n        if n.op == 'call_function':\n"
     "            found[str(n.target)] = found.get(str(n.target), 0) + 1\n    return found\n"),
    ("ranks-and-collectives/fix-averaged-gradients",
     "def sync_grads(grad):\n    dist.all_reduce(grad, op=dist.ReduceOp.SUM)\n"
     "    return grad.div_(dist.get_world_size())\n"),
    ("honest-clock/fix-timer-threads",
     "timer = benchmark.Timer(stmt='a @ a', globals={'a': a}, num_threads={t})\n"
     "m = timer.blocked_autorange(min_run_time=0.02)\n"),
    ("honest-clock/fix-warm-up",
     "def steady_ms(fn, n):\n    for _ in range(2):\n        fn()\n    start = clock()\n"
     "    for _ in range(n):\n        fn()\n    return (clock() - start) / n * 1e3\n"),
    ("training-run/write-accuracy",
     "def accuracy(model, x, y):\n    training = model.training\n    model.eval()\n"
     "    try:\n        with torch.no_grad():\n            hits = (model(x).argmax(dim=1) == y).sum().item()\n"
     "    finally:\n        model.train(training)\n    return hits / len(y)\n"),
    ("training-run/write-checkpoint",
     "import copy\n\ndef make_checkpoint(model, optimizer, scheduler, generator):\n"
     "    return copy.deepcopy({'model': model.state_dict(), 'optimizer': optimizer.state_dict(),\n"
     "                          'scheduler': scheduler.state_dict(), 'rng': torch.get_rng_state(),\n"
     "                          'loader': generator.get_state()})\n\n"
     "def restore(checkpoint, model, optimizer, scheduler, generator):\n"
     "    model.load_state_dict(checkpoint['model'])\n"
     "    optimizer.load_state_dict(checkpoint['optimizer'])\n"
     "    scheduler.load_state_dict(checkpoint['scheduler'])\n"
     "    torch.set_rng_state(checkpoint['rng'])\n    generator.set_state(checkpoint['loader'])\n"),
    ("tpu-practice/bucket-size",
     "import bisect\n\ndef bucket(n, buckets):\n    i = bisect.bisect_left(buckets, n)\n"
     "    if i < len(buckets):\n        return buckets[i]\n    return -(-n // buckets[-1]) * buckets[-1]\n"),
    ("tpu-practice/mask-the-padding",
     "def pad_batch(x, size):\n    n = x.shape[0]\n    padded = F.pad(x, (0, 0, 0, size - n))\n"
     "    mask = (torch.arange(size) < n).float()\n    return padded, mask\n"),
    ("modules-own-parameters/list-not-registered",
     "class Tower(nn.Module):\n    def __init__(self, width, depth):\n        super().__init__()\n"
     "        self.hidden = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])\n"
     "        self.head = nn.Linear(width, 1)\n\n    def forward(self, x):\n"
     "        for layer in self.hidden:\n            if isinstance(layer, (nn.Linear, nn.Conv1d)):\n"
     "                x = torch.relu(layer(x))\n        return self.head(x)\n"),
    # the public puzzle set, as people write it (the chained port's drills, with their `uses`)
    ("chained-puzzles/ones", "from torch import arange, where\n\ndef ones(i):\n    return where(arange(i) > -1, 1, 0)\n"),
    ("chained-puzzles/ones", "def ones(i):\n    return torch.arange(i) * 0 + 1\n"),
    ("chained-puzzles/sum", "def sum(a):\n    return ones(len(a)) @ a[:, None]\n"),
    ("chained-puzzles/outer", "def outer(a, b):\n    return a[:, None] @ b[None, :]\n"),
    ("chained-puzzles/diag", "def diag(a):\n    return a[torch.arange(len(a)), torch.arange(len(a))]\n"),
    ("chained-puzzles/eye", "def eye(j):\n    return 1 * (torch.arange(j)[:, None] == torch.arange(j)[None, :])\n"),
    ("chained-puzzles/triu", "def triu(j):\n    return (torch.arange(j)[:, None] <= torch.arange(j)) * 1\n"),
    ("chained-puzzles/cumsum", "def cumsum(a):\n    return a @ triu(a.shape[-1])\n"),
    ("chained-puzzles/roll", "def roll(a, i):\n    return a[torch.where(torch.arange(i) + 1 < i, torch.arange(i) + 1, 0)]\n"),
    ("chained-puzzles/flip", "def flip(a, i):\n    return a[-torch.arange(i) - 1]\n"),
    ("chained-puzzles/sequence-mask",
     "def sequence_mask(values, length):\n    return values * (length[:, None] > torch.arange(values.shape[1]))\n"),
    ("chained-puzzles/bincount", "def bincount(a, j):\n    return ones(len(a)) @ eye(j)[a]\n"),
    ("bridges/sum-without-fallback",
     "def positive_total(x):\n    return (x * (x > 0.5)).sum()\n"),
]  # fmt: skip


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize(
    ("full_id", "code"), HONEST, ids=[f"{i}-{h[0]}" for i, h in enumerate(HONEST)]
)
def test_answers_a_learner_would_write_pass(full_id, code, mode):
    assert [str(r) for r in read(DRILLS[full_id], code, MODES[mode])] == []


GENERIC = """
import io, json, math, os, random, time
from collections import defaultdict
from dataclasses import dataclass
from typing import Optional
import numpy as np
from torch.utils.data import DataLoader, TensorDataset

print(torch.__version__, torch.cuda.is_available(), os.environ.get("HOME", ""))
random.seed(0)
np.random.seed(0)
torch.manual_seed(0)


@dataclass
class Config:
    lr: float = 0.1
    steps: int = 3


class Net(nn.Module):
    def __init__(self, width: int = 4) -> None:
        super(Net, self).__init__()
        self.fc = nn.Linear(width, 2)
        self.register_buffer("scale", torch.ones(2))

    def forward(self, x: torch.Tensor) -> Optional[torch.Tensor]:
        return self.fc(x) * self.scale

    def __repr__(self):
        return f"{type(self).__name__}({self.fc})"


def init_weights(m):
    if isinstance(m, (nn.Linear, nn.Conv2d)) or type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)


model = Net()
model.apply(init_weights)
model.fc.weight.requires_grad = True
opt = torch.optim.SGD(model.parameters(), lr=Config().lr)
opt.param_groups[0]["lr"] = 0.05
data = TensorDataset(torch.randn(8, 4), torch.randint(0, 2, (8,)))
loader = DataLoader(data, batch_size=4, collate_fn=None, shuffle=False)
seen = defaultdict(list)
counter = 0


def bump():
    global counter
    counter += 1
    return counter


@torch.no_grad()
def accuracy(model, xs, ys):
    return (model(xs).argmax(1) == ys).float().mean().item()


for step, (x, y) in enumerate(loader):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    seen["loss"].append(loss.item())
    bump()
try:
    t0 = time.perf_counter()
    assert math.isfinite(seen["loss"][-1]), "diverged"
except AssertionError as e:
    print(type(e).__name__, e)
buffer = io.BytesIO()
torch.save({"model": model.state_dict()}, buffer)
buffer.seek(0)
state = torch.load(buffer, map_location="cpu", weights_only=True)
model.load_state_dict(state["model"])
print(json.dumps(sorted(seen.items(), key=lambda kv: kv[0])[:1]), accuracy(model, *data[:]))
os.makedirs("out", exist_ok=True)
if __name__ == "__main__":
    squares = [v * v for v in range(3)]
"""


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_whole_program_of_everyday_code_passes(mode):
    drill = DRILLS["loop-bugs/fix-zero-grad"]  # setup binds x and y; no rules
    code = GENERIC.replace("(x, y) in enumerate", "(xb, yb) in enumerate").replace(
        "model(x), y)", "model(xb), yb)"
    )
    assert [str(r) for r in read(drill, code, MODES[mode])] == []


def test_the_pre_pass_refuses_no_more_than_the_judge_on_wrong_answers():
    torch_resolver = TorchResolver()
    for drill in DRILLS.values():
        for wrong in drill.wrong_answers:
            static = {(r.line, r.written) for r in read(drill, wrong.code, _static)}
            judge = {
                (r.line, r.written) for r in read(drill, wrong.code, lambda c, s: torch_resolver)
            }
            assert static <= judge, wrong.code
