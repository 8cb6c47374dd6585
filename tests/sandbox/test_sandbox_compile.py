"""torch.compile (inductor, a real C++ compiler) under the ``compile`` limits profile, with the
runtime's compile cache; torch.export under the default limits. Real torch, real sandbox."""

from __future__ import annotations

import textwrap

import pytest

from tests.sandbox.conftest import layer_params
from tutor.sandbox import Sandbox
from tutor.sandbox.limits import PROFILES, Limits, with_profile

pytestmark = pytest.mark.timeout(900)

COMPILE = textwrap.dedent(
    """
    from torch._dynamo.utils import counters

    def f(x):
        return torch.sin(x) * 2 + x.cos()

    x = torch.linspace(0, 1, 8)
    y = torch.compile(f)(x)
    print(torch.allclose(y, f(x)))
    print(counters["inductor"]["fxgraph_cache_hit"], counters["inductor"]["fxgraph_cache_miss"])
    """
)


def test_profiles_raise_floors_and_refuse_unknown_names():
    tight = Limits(timeout=2.0, memory_mb=512)
    assert with_profile(tight, None) == Limits(timeout=2.0, memory_mb=512)
    raised = with_profile(tight, "compile")
    assert raised.profile == "compile"
    assert raised.timeout == PROFILES["compile"]["timeout"]
    assert raised.memory_mb == PROFILES["compile"]["memory_mb"]
    assert with_profile(Limits(timeout=999.0), "compile").timeout == 999.0
    with pytest.raises(ValueError, match="unknown limits profile 'fast'.*compile"):
        with_profile(tight, "fast")


@pytest.mark.parametrize("layer", layer_params())
def test_inductor_compiles_and_the_second_compile_hits_the_cache(layer):
    with Sandbox(containment=layer) as box:
        tight = box.run(COMPILE, timeout=2.0)
        assert not tight.ok  # the default limits stay tight: a compile does not fit
        first = box.run(COMPILE, profile="compile")
        assert first.ok, first
        assert layer in first.containment
        assert first.stdout.splitlines()[0] == "True"
        assert first.stdout.splitlines()[1].split()[1] != "0"  # compiled: a cache miss
        second = box.run(COMPILE, profile="compile")
        assert second.ok, second
        hits, misses = second.stdout.splitlines()[1].split()
        assert (int(hits), int(misses)) == (1, 0)  # the same graph came from the cache
        leftover = box.run("import os; print(sorted(os.listdir('.')))", timeout=10)
        assert leftover.stdout.strip() == "[]"


def test_runs_read_the_python_headers_and_cannot_change_them(sandbox):
    """Inductor builds against Python.h: every run can read it (a Python under a private home
    gets a copy the runtime shares), and with a dedicated uid no run can change it."""
    code = textwrap.dedent(
        """
        import os, sysconfig
        header = os.path.join(sysconfig.get_path("include"), "Python.h")
        print(os.access(header, os.R_OK), os.access(header, os.W_OK))
        try:
            open(header, "a").close()
            print("appended")
        except OSError as exc:
            print(type(exc).__name__)
        """
    )
    result = sandbox.run(code, timeout=10)
    assert result.ok, result
    readable, writable = result.stdout.splitlines()[0].split()
    assert readable == "True"
    if "uid" in result.containment:
        assert writable == "False"
        assert result.stdout.splitlines()[1] in ("PermissionError", "OSError")


def test_doctor_probe_says_whether_inductor_can_build_here(sandbox):
    here = sandbox.call("tutor.probes.backends:inductor")
    assert here.ok, here
    assert here.value["available"] is True, here.value
    assert here.value["compiler"].endswith("g++")
    no_compiler = sandbox.call("tutor.probes.backends:inductor", compiler="no-such-c++")
    assert no_compiler.value["available"] is False
    assert no_compiler.value["detail"].startswith("no C++ compiler: no-such-c++ is not on")
    no_headers = sandbox.call("tutor.probes.backends:inductor", include="/nonexistent")
    assert no_headers.value["available"] is False
    assert "/nonexistent/Python.h is missing or unreadable" in no_headers.value["detail"]


def test_export_and_run_decompositions(sandbox):
    code = textwrap.dedent(
        """
        class M(nn.Module):
            def forward(self, x):
                return F.gelu(x @ x.T).sum(0)

        ep = torch.export.export(M(), (torch.ones(3, 4),))
        core = ep.run_decompositions()
        ops = sorted({str(n.target) for n in core.graph.nodes if n.op == "call_function"})
        print(ops)
        print(torch.allclose(core.module()(torch.ones(3, 4)), M()(torch.ones(3, 4))))
        """
    )
    result = sandbox.run(code, timeout=60, memory_mb=2048)
    assert result.ok, result
    ops, same = result.stdout.splitlines()
    assert "aten.mm.default" in ops and "aten.gelu.default" in ops
    assert same == "True"
