"""The starting values, choices and bounds of the labs' parameters: plain constants, imported by
the lab table (``tutor.content.labs``, which declares every parameter) and by the probes and data
models that hold a run to the same bounds. Nothing here imports anything: the table is read at
start-up, long before any lab opens."""

from __future__ import annotations

#: the stride map's starting expression
STRIDE_EXPR = "torch.randn(2, 3, 4).permute(2, 0, 1)"

#: the autograd tape's starting forward code (the last assigned name is the scalar)
TAPE_CODE = "x = torch.tensor([1., 2., 3.], requires_grad=True)\nz = (x**2 + 3*x).sum()"

#: the loop debugger's problems and bugs
LOOP_PROBLEMS: tuple[str, ...] = ("line", "classify")
LOOP_BUGS: tuple[str, ...] = (
    "none",
    "no_zero_grad",
    "softmax_into_ce",
    "step_before_backward",
    "lr_too_high",
    "no_eval",
    "wrong_loss",
)

#: the ledger's starting module (the last line builds it)
LEDGER_CODE = (
    "nn.Sequential(\n    nn.Flatten(),\n    nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),\n"
    "    nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.2),\n    nn.Linear(128, 10),\n)"
)

#: the loader lab's bounds
LOADER_MAX_SAMPLES = 100_000
LOADER_MAX_WORKERS = 4

#: the guard viewer's backends (inductor needs a C++ compiler and the ``compile`` limits)
GUARDS_BACKENDS = ("eager", "aot_eager", "inductor")
#: the guard viewer's starting code: ``f`` and the ``calls`` made through one torch.compile(f)
GUARDS_CODE = (
    "def f(x, k):\n"
    "    y = x.sin() * k\n"
    '    print("step")\n'
    "    return y.cos()\n\n"
    "calls = [(torch.randn(4), 2), (torch.randn(4), 3), (torch.randn(5), 3)]"
)

#: the graph viewer's starting code: ``model`` and its example ``args``
GRAPH_CODE = (
    "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\n"
    "args = (torch.randn(3, 4),)"
)

#: the dispatch race's ops (``tutor.probes.data_race.OPS`` holds their code) and bounds
RACE_OPS = ("linear", "normalize", "dot")
RACE_MAX_N = 20_000
RACE_MAX_DIM = 1024

#: the rank timeline's collectives and bounds
RANKS_OPS = ("all_reduce", "all_gather", "broadcast", "reduce_scatter")
RANKS_MIN_WORLD, RANKS_MAX_WORLD = 2, 4
#: the slow rank's extra work, at most (ms)
RANKS_MAX_DELAY_MS = 2000
#: the collective timeout the lab may set, in seconds
RANKS_MIN_TIMEOUT_S, RANKS_MAX_TIMEOUT_S = 0.5, 5.0

#: the benchmark lab's starting code (a small matrix multiply) and thread bound
BENCH_CODE = "a = torch.randn(256, 256)\nb = torch.randn(256, 256)\n\ndef fn():\n    return a @ b\n"
BENCH_MAX_THREADS = 8

#: the training run's backends, epoch bound and starting config: code that defines ``model``
#: and may set ``lr``, ``batch_size``, ``momentum`` and ``gamma`` (the learning rate's decay)
TRAIN_BACKENDS = ("eager", "compile", "xla")
TRAIN_MAX_EPOCHS = 50
TRAIN_CONFIG = """\
model = nn.Sequential(
    nn.Linear(64, 64),
    nn.ReLU(),
    nn.Linear(64, 10),
)
lr = 0.05
batch_size = 32
momentum = 0.9
gamma = 0.7
"""

#: the two-bridge ledger's starting code: it defines ``model``, ``args`` and optionally ``forward``
BRIDGES_CODE = """\
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
args = (torch.arange(6, dtype=torch.float32).reshape(2, 3),)
"""

#: the recompilation counter's starting batch sizes and bounds
RECOMPILE_SIZES = "32,32,17,32,9,32,17,25"
RECOMPILE_MAX_BATCH = 512
RECOMPILE_MAX_STEPS = 64
