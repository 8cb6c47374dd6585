"""The xla runtime (``make xla-runtime``) inside the sandbox: torch_xla lazy tensors with metrics
and sync, StableHLO from torch_xla and from torchax, torchax eager and jax.jit of an extracted
function, under both layers (bubblewrap, and rlimits alone as a TPU VM needs it), contained as
every runtime is; found with no configuration, run as the dedicated uid."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import xla_runtime_or_skip
from tests.sandbox.conftest import find_leftovers, layer_params
from tutor.sandbox import Sandbox
from tutor.sandbox.selftest import check_names, run_check

pytestmark = pytest.mark.timeout(600)

XLA = {"timeout": 240, "memory_mb": 6144}
#: the self-test checks that only the system-call filter makes hold
FILTERED = ("memory outside the limit is refused", "no new user namespaces")


@pytest.fixture(scope="module", params=layer_params())
def xla_layer_box(request):
    """A started sandbox on the xla runtime with the layer named by the parameter."""
    box = Sandbox(runtime=xla_runtime_or_skip(), containment=request.param)
    box.start()
    yield box
    box.close()


def test_runtime_is_found_contained_and_on_cpu(xla_sandbox):
    code = "import getpass, os, torch_xla\nprint(getpass.getuser(), os.environ['PJRT_DEVICE'])"
    result = xla_sandbox.run(code, **XLA)
    assert result.ok, result
    user, device = result.stdout.split()
    assert device == "CPU"
    assert xla_sandbox.ready["torch"].startswith("2.9.0")
    if "uid" in result.containment:
        assert user == "learner"  # the sandbox's own /etc/passwd names the dedicated uid


def test_lazy_tensors_metrics_and_sync(xla_layer_box):
    code = textwrap.dedent(
        """
        import torch_xla
        import torch_xla.debug.metrics as met

        met.clear_all()
        x = torch.arange(6.0, device=torch_xla.device()).reshape(2, 3)
        y = (x * 2).sum()
        print(y.device, met.metric_data("CompileTime") is None)
        torch_xla.sync()
        value = y.item()  # waits for the graph: its execution is recorded when it finishes
        print(met.metric_data("CompileTime")[0], met.metric_data("ExecuteTime")[0], value)
        """
    )
    result = xla_layer_box.run(code, **XLA)
    assert result.ok, result
    assert result.stdout.splitlines() == ["xla:0 True", "1 1 30.0"]


def test_stablehlo_from_both_bridges_and_torchax(xla_layer_box):
    code = textwrap.dedent(
        """
        import jax, jax.numpy as jnp, torchax
        from torch_xla.stablehlo import exported_program_to_stablehlo

        class M(nn.Module):
            def forward(self, a):
                return torch.relu(a) + 1

        ep = torch.export.export(M(), (torch.ones(2, 2),))
        text = exported_program_to_stablehlo(ep).get_stablehlo_text()
        print("torch_xla", "stablehlo.maximum" in text, "func.func" in text)

        torch.manual_seed(0)
        lin = nn.Linear(3, 2)
        weights, fn = torchax.extract_jax(lin)
        args = (jnp.ones((1, 3)),)
        out = jax.jit(fn)(weights, args)
        want = lin(torch.ones(1, 3)).detach().numpy()
        print("jit", out.shape, bool(abs(out - want).max() < 1e-5))
        print("torchax", "stablehlo.dot_general" in jax.jit(fn).lower(weights, args).as_text())
        with torchax.default_env():
            t = torch.ones(2, 2)
            print("eager", type(t).__name__, (t @ t).sum().item())
        """
    )
    result = xla_layer_box.run(code, **XLA)
    assert result.ok, result
    assert result.stdout.splitlines() == [
        "torch_xla True True",
        "jit (1, 2) True",
        "torchax True",
        "eager Tensor 8.0",
    ]
    assert find_leftovers(xla_layer_box) == []


def test_the_containment_self_test_holds_in_the_xla_runtime(xla_layer_box):
    """No network but the loopback, no writes outside scratch, nothing left for the next run,
    and the rest of what ``tutor doctor`` checks, in this runtime too."""

    async def run(code, **limits):
        return xla_layer_box.run(code, **limits)

    async def every_check():
        return [await run_check(name, run, True) for name in check_names(local=True)]

    checks = asyncio.run(every_check())
    assert {"network is blocked", "cannot leave files outside scratch"} <= {c.name for c in checks}
    failed = {c.name: c.detail for c in checks if not c.ok}
    if "seccomp" not in xla_layer_box.layers:  # a runtime built without pyseccomp: doctor says so
        for name in FILTERED:
            failed.pop(name, None)
    assert failed == {}


def test_exec_and_doctor_name_the_runtime(xla_sandbox, tmp_path):
    answer = tmp_path / "a.py"
    answer.write_text("import torch_xla\nprint(torch.__version__)\n")
    cli = [sys.executable, "-m", "tutor"]
    done = subprocess.run(
        [*cli, "exec", str(answer), "--runtime", "xla", "--timeout", "120", "--json"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=400,
    )
    data = json.loads(done.stdout)
    assert data["status"] == "ok", data
    assert data["stdout"].startswith("2.9.0")
    doctor = subprocess.run(
        [*cli, "doctor", "--runtime", "xla", "--no-selftest", "--json"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=400,
    )
    report = json.loads(doctor.stdout)
    assert report["runtimes"][0]["torch"].startswith("2.9.0"), report


def test_backward_on_the_xla_device_in_every_run(xla_sandbox):
    """The zygote runs no backward before the fork, so each run's autograd engine sizes its
    device queues for XLA itself (a backward there would leave no XLA queue in any run)."""
    code = textwrap.dedent(
        """
        import torch_xla

        w = torch.tensor([1.0, 2.0, 3.0], device=torch_xla.device(), requires_grad=True)
        loss = (w * w).sum()
        loss.backward()
        print(w.grad.device, w.grad.cpu().tolist())
        """
    )
    for _ in range(2):
        result = xla_sandbox.run(code, **XLA)
        assert result.ok, result
        assert result.stdout.splitlines() == ["xla:0 [2.0, 4.0, 6.0]"]
    plain = xla_sandbox.run("x = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\n"
                            "print(x.grad.tolist())", **XLA)  # fmt: skip
    assert plain.ok and plain.stdout.strip() == "[3.0, 3.0]", plain
