"""`forbid` read from the text: loops (comprehensions too) and calls through any alias."""

from __future__ import annotations

import pytest

from tutor.probes.reading import Refusal, read_answer, static_resolver

FORBID = ["for", "while", "torch.outer", "torch.einsum"]


def refusals(code: str, forbid=FORBID) -> list[Refusal]:
    return read_answer(code, setup="", forbid=forbid, allow=[], max_lines=None,
                       resolver=static_resolver(code, ""))  # fmt: skip


def names(code: str, forbid=FORBID) -> list[str]:
    """The forbid entries the code breaks (what else the rules refuse aside)."""
    found = [r.name for r in refusals(code, forbid) if r.rule in ("forbidden", "loop")]
    return sorted(set(found))


def test_clean_code_passes():
    assert refusals("def outer(a, b):\n    return a[:, None] * b[None, :]\n") == []


@pytest.mark.parametrize(
    "code",
    [
        "def f(a, b):\n    return torch.stack([x * b for x in a])\n",
        "def f(a, b):\n    return torch.stack(list(x * b for x in a))\n",
        "def f(a, b):\n    return {i: 1 for i in range(3)}\n",
        "def f(a, b):\n    out = []\n    for x in a:\n        out.append(x * b)\n    return out\n",
    ],
)
def test_loops_including_comprehensions(code):
    assert names(code) == ["for"]


def test_while():
    assert names("i = 0\nwhile i < 3:\n    i += 1\n") == ["while"]


@pytest.mark.parametrize(
    "code",
    [
        "def f(a, b):\n    return torch.outer(a, b)\n",
        "from torch import outer\ndef f(a, b):\n    return outer(a, b)\n",
        "from torch import outer as o\ndef f(a, b):\n    return o(a, b)\n",
        "import torch as t\ndef f(a, b):\n    return t.outer(a, b)\n",
        "g = torch.outer\ndef f(a, b):\n    return g(a, b)\n",
        "def f(a, b):\n    return getattr(torch, 'outer')(a, b)\n",
        "from torch import *\ndef f(a, b):\n    return outer(a, b)\n",
        "def f(a, b):\n    return a.outer(b)\n",
        "def f(a, b):\n    return torch.Tensor.outer(a, b)\n",
    ],
)
def test_forbidden_call_through_aliases(code):
    assert names(code) == ["torch.outer"]


def test_a_module_bound_to_a_name_is_refused_before_any_alias_is_followed():
    found = refusals("m = torch\ndef f(a, b):\n    return m.outer(a, b)\n")
    assert [(r.line, r.rule) for r in found][:1] == [(1, "tamper")]
    assert "never as a value" in found[0].why
    assert [r.name for r in found if r.rule == "forbidden"] == ["torch.outer"]  # the method form


def test_a_star_import_is_refused_and_still_followed():
    found = refusals("from torch import *\ndef f(a, b):\n    return outer(a, b)\n")
    assert [(r.line, r.rule, r.name) for r in found] == [
        (1, "tamper", "*"),
        (3, "forbidden", "torch.outer"),
    ]


def test_line_is_reported():
    found = refusals("x = 1\n\ny = torch.einsum('i,j->ij', x, x)\n")
    assert [(r.name, r.line) for r in found] == [("torch.einsum", 3)]
    assert str(found[0]) == "line 3: `torch.einsum`: this drill forbids `torch.einsum`"


def test_a_local_name_is_not_a_forbidden_call():
    assert refusals("def f(a, b):\n    outer = a\n    return outer * b\n") == []


def test_forbidding_a_module_forbids_its_members():
    assert names("y = torch.linalg.norm(torch.ones(2))\n", ["torch.linalg"]) == ["torch.linalg"]
    code = "y = F.relu(torch.ones(2))\n"
    assert names(code, ["torch.nn.functional.relu"]) == ["torch.nn.functional.relu"]
    assert names(code, ["F.relu"]) == ["torch.nn.functional.relu"]


def test_syntax_error_raises():
    with pytest.raises(SyntaxError):
        refusals("def f(:\n", FORBID)
