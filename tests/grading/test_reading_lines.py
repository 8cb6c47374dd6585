"""`max_lines` counts every statement, wherever it hides (read, not run)."""

from __future__ import annotations

import pytest

from tutor.probes.reading import count_lines


@pytest.mark.parametrize(
    ("code", "lines"),
    [
        ("def f(x):\n    return x\n", 1),
        ('def f(a,\n      b):\n    """doc"""\n    # note\n\n    return a\n', 1),
        ("import torch\nimport math\ndef f(x):\n    return x\n", 1),
        ("def f(x, y=1, z=-2.0, w=None, d=(1, 'a'), e=torch.float32):\n    return x\n", 1),
        ("def f(x: torch.Tensor, k: int | None = None) -> dict[str, int]:\n    return x\n", 1),
        ("class A(nn.Module):\n    def forward(self, x):\n        return x\n", 2),
        # what was not counted before
        ("import torch; y = torch.arange(3)\ndef f(x):\n    return x + y\n", 2),
        ("import math; import torch\ndef f(x):\n    return x\n", 1),
        ("def f(x, t=(y := torch.flip(x, [0]))):\n    return t\n", 2),
        ("def f(x,\n      a=(b := x * 2),\n      c=(d := b + 1)):\n    return d\n", 3),
        ("def f(x, g=lambda v: v + 1):\n    return g(x)\n", 2),
        ("def f(x, y=torch.zeros(3), z=torch.ones(3)):\n    return x\n", 3),
        ("def f(x, *, y=x_global[0]):\n    return y\n", 2),
        ("@torch.no_grad()\ndef f(x):\n    return x\n", 2),
        ("@a\n@b\ndef f(x):\n    return x\n", 3),
        ("def f(x):\n    a = x; b = a; return b\n", 3),
        ("def f(x):\n    if x: return 1\n    return 2\n", 3),
        ("g = lambda a: a\ndef f(a):\n    x = (a +\n         1)\n    return x\n", 4),
    ],
)  # fmt: skip
def test_lines_counted(code, lines):
    assert count_lines(code) == lines


def test_a_syntax_error_raises():
    with pytest.raises(SyntaxError):
        count_lines("def f(:\n")
