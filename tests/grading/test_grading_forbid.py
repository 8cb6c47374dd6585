"""The AST half of `forbid`: loops (comprehensions too) and calls through any alias."""

from __future__ import annotations

import pytest

from tutor.grading.forbid import find_forbidden

FORBID = ["for", "while", "torch.outer", "torch.einsum"]


def names(code: str, forbid=FORBID) -> list[str]:
    return [u.name for u in find_forbidden(code, forbid)]


def test_clean_code_passes():
    assert names("def outer(a, b):\n    return a[:, None] * b[None, :]\n") == []


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
        "m = torch\ndef f(a, b):\n    return m.outer(a, b)\n",
        "def f(a, b):\n    return getattr(torch, 'outer')(a, b)\n",
        "from torch import *\ndef f(a, b):\n    return outer(a, b)\n",
    ],
)
def test_forbidden_call_through_aliases(code):
    assert names(code) == ["torch.outer"]


def test_line_is_reported():
    uses = find_forbidden("x = 1\n\ny = torch.einsum('i,j->ij', a, b)\n", FORBID)
    assert [(u.name, u.line) for u in uses] == [("torch.einsum", 3)]


def test_a_local_name_is_not_a_forbidden_call():
    assert names("def f(a, b):\n    outer = a\n    return outer * b\n") == []


def test_forbidding_a_module_forbids_its_members():
    assert names("y = torch.linalg.norm(x)\n", ["torch.linalg"]) == ["torch.linalg"]
    assert names("y = F.relu(x)\n", ["torch.nn.functional.relu"]) == ["torch.nn.functional.relu"]


def test_syntax_error_raises():
    with pytest.raises(SyntaxError):
        find_forbidden("def f(:\n", FORBID)
