"""Cheats against part ii's code and fix drills, each graded by the real engine in the real
sandbox of the drill's runtime: none comes out correct. Beside them, right answers written another way than the
reference still pass, on two seeds each."""

from __future__ import annotations

import pytest

from tutor.content.catalog import Catalog
from tutor.grading.engine import grade

CATALOG = Catalog.load()

MSE = "F.mse_loss(model(x), y)"
BY_HAND = "((x @ model.weight.T + model.bias - y) ** 2).mean()"
QUIET = "torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)"


def _evaluate_inside(context: str, loss: str) -> str:
    """An evaluate that reads each loss with .item() inside ``context`` (no no_grad)."""
    return (
        f"def evaluate(model, batches):\n    total = 0.0\n    with {context}:\n"
        f"        for x, y in batches:\n            total += {loss}.item()\n"
        "    return total / len(batches)\n"
    )


#: (drill, what the cheat does, the answer)
CHEATS: list[tuple[str, str, str]] = [
    ("honest-clock/fix-eval-tape", "the tape kept, its saved tensors hidden from the check",
     _evaluate_inside(QUIET, MSE)),
    ("honest-clock/fix-eval-tape", "the forward by hand, its saved tensors hidden",
     _evaluate_inside(QUIET, BY_HAND)),
    ("honest-clock/fix-eval-tape", "torch function turned off around the loop",
     _evaluate_inside("torch._C.DisableTorchFunction()", MSE)),
    ("honest-clock/step-flops", "a table of the fixed cases",
     "def step_flops(widths, batch):\n"
     "    return {(784, 256, 10, 32): 32 * 2 * (3 * (784 * 256 + 2560) - 784 * 256),"
     " (3, 5, 1): 30}[tuple(widths) + (batch,)]\n"),
    ("honest-clock/step-flops", "torch's counter, imported at run time",
     "import importlib\ndef step_flops(widths, batch):\n"
     "    fc = importlib.import_module('torch.utils.' + 'flop_counter')\n"
     "    m = nn.Sequential(*[nn.Linear(i, o) for i, o in zip(widths, widths[1:])])\n"
     "    with fc.FlopCounterMode(display=False) as c:\n"
     "        m(torch.randn(batch, widths[0])).sum().backward()\n    return c.get_total_flops()\n"),
    ("bridges/optax-train", "torch's autograd and SGD on plain torch tensors",
     "import numpy as np\ndef train(w, x, y, steps, lr):\n"
     "    tw = torch.tensor(np.asarray(w)).requires_grad_(True)\n"
     "    tx, ty = torch.tensor(np.asarray(x)), torch.tensor(np.asarray(y))\n"
     "    opt = torch.optim.SGD([tw], lr=lr)\n    losses = []\n    for _ in range(steps):\n"
     "        opt.zero_grad()\n        loss = loss_fn(tw, tx, ty)\n        losses.append(loss.item())\n"
     "        loss.backward()\n        opt.step()\n"
     "    return jnp.asarray(tw.detach().numpy()), losses\n"),
    ("honest-clock/step-flops", "the right count as a float",
     "def step_flops(widths, batch):\n    pairs = [a * b for a, b in zip(widths, widths[1:])]\n"
     "    return 2.0 * batch * (3 * sum(pairs) - pairs[0])\n"),
    ("ranks-and-collectives/accumulate-no-sync", "all-reduced by hand, then one empty DDP backward",
     "def accumulate(ddp, batches):\n    with ddp.no_sync():\n        for x in batches:\n"
     "            ddp(x).sum().backward()\n    for p in ddp.module.parameters():\n"
     "        dist.all_reduce(p.grad)\n        p.grad /= dist.get_world_size()\n"
     "    ddp(batches[0]).sum().mul(0).backward()\n"),
    ("bridges/keep-one-graph", "the loss computed on the CPU, its value sent to the device",
     "def step_loss(x):\n    loss = ((x @ w.cpu()) ** 2).mean()\n"
     "    out = loss.to(dev) * 1.5 / 1.5\n    torch_xla.sync()\n    return out\n"),
    ("bridges/keep-one-graph", "the weights read to the CPU once, the loss computed there",
     "w_cpu = w.cpu()\ndef step_loss(x):\n    loss = ((x @ w_cpu) ** 2).mean()\n"
     "    out = loss.to(dev) * 1.5 / 1.5\n    torch_xla.sync()\n    return out\n"),
    *[
        ("ranks-and-collectives/fix-averaged-gradients", f"the mean read from the setup's {name}",
         f"def sync_grads(grad):\n    return torch.tensor({name}).mean(0)\n")
        for name in ("grads", "_grads")
    ],
    *[
        ("ranks-and-collectives/fix-one-sided-broadcast", f"rank 0's weights read from the setup's {name}",
         f"def share(t, rank):\n    return torch.tensor({name})\n")
        for name in ("weights", "_weights")
    ],
    *[
        ("ranks-and-collectives/fix-group-sum", f"the group's sum read from the setup's {name}",
         "def group_sum(t, mesh):\n    r = mesh.get_rank()\n"
         f"    return torch.tensor([sum({name}[q] for q in range(4) if q % 2 == r % 2)])\n")
        for name in ("values", "_values")
    ],
]  # fmt: skip

#: (drill, how it is written, the answer): right answers the reference does not spell out
RIGHT: list[tuple[str, str, str]] = [
    ("honest-clock/fix-eval-tape", "inference_mode as a decorator",
     "@torch.inference_mode()\ndef evaluate(model, batches):\n"
     "    return sum(F.mse_loss(model(x), y).item() for x, y in batches) / len(batches)\n"),
    ("honest-clock/fix-eval-tape", "recording switched off and back on",
     "def evaluate(model, batches):\n    torch.set_grad_enabled(False)\n"
     "    total = sum(F.mse_loss(model(x), y).item() for x, y in batches)\n"
     "    torch.set_grad_enabled(True)\n    return total / len(batches)\n"),
    ("honest-clock/fix-eval-tape", "the model called with detached parameters",
     "def evaluate(model, batches):\n    params = {k: v.detach() for k, v in model.named_parameters()}\n"
     "    total = 0.0\n    for x, y in batches:\n"
     "        total += F.mse_loss(torch.func.functional_call(model, params, (x,)), y).item()\n"
     "    return total / len(batches)\n"),
    ("bridges/optax-train", "a jitted value_and_grad",
     "def train(w, x, y, steps, lr):\n    opt = optax.sgd(lr)\n    state = opt.init(w)\n"
     "    grad_fn = jax.jit(jax.value_and_grad(interop.jax_view(loss_fn)))\n    losses = []\n"
     "    for _ in range(steps):\n        loss, g = grad_fn(w, x, y)\n        losses.append(loss.item())\n"
     "        updates, state = opt.update(g, state)\n        w = optax.apply_updates(w, updates)\n"
     "    return w, losses\n"),
    ("honest-clock/step-flops", "three times the forward, less the first layer's input gradient",
     "def step_flops(widths, batch):\n    pairs = [a * b for a, b in zip(widths, widths[1:])]\n"
     "    return 2 * batch * (3 * sum(pairs) - pairs[0])\n"),
    ("ranks-and-collectives/accumulate-no-sync", "no_sync() around each backward but the last",
     "def accumulate(ddp, batches):\n    for x in batches[:-1]:\n        with ddp.no_sync():\n"
     "            ddp(x).sum().backward()\n    ddp(batches[-1]).sum().backward()\n"),
]  # fmt: skip


def _sandbox(request, drill: str):
    """The session's sandbox of the drill's runtime."""
    xla = CATALOG.drill(drill).drill.runtime == "xla"
    return request.getfixturevalue("xla_sandbox" if xla else "sandbox")


@pytest.mark.parametrize(
    ("drill", "what", "answer"), CHEATS, ids=[f"{d}: {w}" for d, w, _ in CHEATS]
)
def test_a_cheat_is_refused(request, drill, what, answer):
    g = grade(CATALOG.drill(drill), answer, 1, _sandbox(request, drill))
    assert not g.correct and g.status != "correct", g


@pytest.mark.parametrize(("drill", "what", "answer"), RIGHT, ids=[f"{d}: {w}" for d, w, _ in RIGHT])
def test_a_right_answer_written_another_way_passes(request, drill, what, answer):
    for seed in (1, 2):
        g = grade(CATALOG.drill(drill), answer, seed, _sandbox(request, drill))
        assert g.correct, (seed, g.feedback)
