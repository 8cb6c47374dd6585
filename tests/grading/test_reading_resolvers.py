"""The two resolvers of the reading: the torch-free one states only facts the judge's torch
agrees with; the judge's one walks real modules without importing or running anything."""

from __future__ import annotations

import sys

import pytest

from tutor.content.models import CodeDrill
from tutor.grading.codecheck import refusal_judgement
from tutor.probes.reading_judge import judge_reading
from tutor.probes.reading_resolve import TENSOR_ATTRIBUTES, Kind, StaticResolver, static_facts
from tutor.probes.reading_torch import TorchResolver


@pytest.fixture(scope="module")
def judge():
    return TorchResolver()


def test_every_fact_of_the_pre_pass_holds_in_torch(judge):
    facts = static_facts()
    assert len(facts) > 300
    wrong = {k: (v, judge.find(k)) for k, v in facts.items() if judge.find(k) != v}
    assert wrong == {}


def test_every_tensor_attribute_of_the_pre_pass_is_one(judge):
    assert all(judge.tensor_attribute(a) for a in TENSOR_ATTRIBUTES)
    assert StaticResolver().tensor_attribute("no_such_method") is None
    assert judge.tensor_attribute("no_such_method") is False


def test_the_pre_pass_says_unknown_rather_than_guess():
    static = StaticResolver()
    assert static.find("torch.storage.np").kind is Kind.UNKNOWN
    assert static.find("torch.bincount").kind is Kind.UNKNOWN
    assert static.find("os").kind is Kind.MODULE  # the standard library's names
    assert static.find("numpy").kind is Kind.UNKNOWN
    assert StaticResolver(frozenset({"numpy"})).find("numpy").kind is Kind.MODULE
    assert not static.same("torch.einsum", "torch.functional.einsum")


@pytest.mark.parametrize(
    ("dotted", "kind", "name"),
    [
        ("torch.storage.np", Kind.MODULE, "numpy"),
        ("torch.amp.autocast_mode.np", Kind.MODULE, "numpy"),
        ("torch.storage.np.flip", Kind.CALLABLE, "numpy.flip"),
        ("torch.os", Kind.MODULE, "os"),
        ("torch.os.fork", Kind.CALLABLE, "os.fork"),
        ("torch.builtins", Kind.MODULE, "builtins"),
        ("torch.sys", Kind.MODULE, "sys"),
        ("torch.serialization.pickle", Kind.MODULE, "pickle"),
        ("torch.storage.threading.Thread", Kind.CLASS, "threading.Thread"),
        ("no_such_module.x", Kind.MISSING, "no_such_module.x"),
        ("torch.nn.functional.torch.outer", Kind.CALLABLE, "torch.outer"),
        ("torch.optim.SGD", Kind.CLASS, "torch.optim.SGD"),
        ("torch.optim.SGD.step", Kind.CALLABLE, "torch.optim.SGD.step"),
        ("torch.Tensor.T", Kind.VALUE, "torch.Tensor.T"),
        ("torch.float32", Kind.VALUE, "torch.float32"),
        ("torch.nn.functional.no_such_name", Kind.MISSING, "torch.nn.functional.no_such_name"),
        ("torch.no_such_name", Kind.UNKNOWN, "torch.no_such_name"),  # torch has __getattr__
    ],
)
def test_chains_are_named_by_where_they_land(judge, dotted, kind, name):
    found = judge.find(dotted)
    assert (found.kind, found.name) == (kind, name)


def test_tensor_classes_are_known(judge):
    assert judge.find("torch.nn.Parameter").tensor is True
    assert judge.find("torch.nn.Linear").tensor is False


def test_the_same_object_under_two_names(judge):
    assert judge.same("torch.einsum", "torch.functional.einsum")
    assert not judge.same("torch.outer", "torch.einsum")
    assert not judge.same("no_such_module.x", "no_such_module.x")


def test_nothing_is_imported_to_answer(judge, tmp_path, monkeypatch):
    (tmp_path / "planted.py").write_text("import sys\nsys.planted_ran = True\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert judge.find("planted").kind is Kind.MODULE
    assert judge.find("planted.anything.deeper").kind is Kind.UNKNOWN
    assert "planted" not in sys.modules and not hasattr(sys, "planted_ran")
    lazy = [m for m in ("torch._dynamo", "torch.utils.benchmark") if m not in sys.modules]
    for m in lazy:
        assert judge.find(m).kind is Kind.MODULE
    assert [m for m in lazy if m in sys.modules] == []


def test_the_judges_reading_is_plain_data():
    found = judge_reading("import sys\n", "", [], [], None)
    assert found == [{"line": 1, "written": "import sys", "rule": "dynamic", "name": "sys",
                      "why": "it reaches into the interpreter, around what grading relies on"}]  # fmt: skip
    assert judge_reading("def f(:\n", "", [], [], None)[0]["rule"] == "syntax"
    assert judge_reading("def f(x):\n    return x\n", "", ["for"], [], 1) == []


def test_its_data_makes_the_same_verdict_as_the_pre_pass():
    drill = CodeDrill(kind="code", id="d", prompt="p", starter="def f(x):\n    ...\n",
                      reference="def f(x):\n    return x\n", check={"call": "f"},
                      forbid=["for"])  # fmt: skip
    verdict, names = refusal_judgement(drill, judge_reading("import sys\n", "", ["for"], [], None))
    assert verdict.status == "wrong" and verdict.category == "forbidden" and names == ["sys"]
    assert "line 1: `import sys`" in verdict.feedback
    verdict, _ = refusal_judgement(drill, judge_reading("def f(:\n", "", ["for"], [], None))
    assert verdict.status == "invalid" and "line 1" in verdict.feedback
