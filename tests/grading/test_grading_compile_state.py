"""Runs graded one after another in one runtime child start with a fresh torch.compile state.

Dynamo remembers, per file name and line, which sizes changed before (automatic dynamic), and
all drill code is compiled as ``<setup>``/``<answer>``; a second run of the same code in one
process must still count the compiles a fresh process would.
"""

from __future__ import annotations

SETUP = """
graphs = []
def count(gm, example_inputs):
    graphs.append(gm)
    return gm.forward

cf = torch.compile(lambda x: x.sin() + 1, backend=count)
for n in (3, 4, 5):
    cf(torch.randn(n))
"""


def test_each_predict_case_compiles_as_a_fresh_process_would(sandbox):
    cases = [{"setup": SETUP, "ask": "len(graphs)"}] * 3
    result = sandbox.call(
        "tutor.probes.grade_predict:predict_seeds", cases=cases, timeout=60.0, memory_mb=2048
    )
    assert result.ok, result.message
    truths = [case["value"]["value"] for case in result.value]
    # size 3 compiles, size 4 recompiles with the size dynamic, size 5 reuses it: 2 graphs,
    # every time (the later runs would see 1 if the first run's dynamic size leaked into them)
    assert truths == [2, 2, 2]
