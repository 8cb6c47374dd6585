"""torch.compile (inductor, a real C++ compiler) under the ``compile`` limits profile, with the
runtime's compile cache; torch.export under the default limits. Real torch, real sandbox."""

from __future__ import annotations

import textwrap

import pytest

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


def test_inductor_compiles_and_the_second_compile_hits_the_cache():
    with Sandbox() as box:
        tight = box.run(COMPILE, timeout=2.0)
        assert not tight.ok  # the default limits stay tight: a compile does not fit
        first = box.run(COMPILE, profile="compile")
        assert first.ok, first
        assert first.stdout.splitlines()[0] == "True"
        assert first.stdout.splitlines()[1].split()[1] != "0"  # compiled: a cache miss
        second = box.run(COMPILE, profile="compile")
        assert second.ok, second
        hits, misses = second.stdout.splitlines()[1].split()
        assert (int(hits), int(misses)) == (1, 0)  # the same graph came from the cache
        leftover = box.run("import os; print(sorted(os.listdir('.')))", timeout=10)
        assert leftover.stdout.strip() == "[]"


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
