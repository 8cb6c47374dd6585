"""pack check reports an assert whose expected side is computed from the answer's own names."""

from __future__ import annotations

import pytest

from tutor.content.assert_taint import self_compared

SETUP = "x = torch.randn(4)\ndef _helper(f):\n    return f(x), x * 2\n"


@pytest.mark.parametrize(
    "code",
    [
        "want = images.permute(0, 2, 3, 1)\nassert torch.equal(rows, want)\n",
        "assert torch.allclose(y, z * 2)\n",
        "_a = f(1)\n_b = _a + 1\nassert _b == _a + 1\n",
        "for _got, _want in zip(outs, targets):\n    assert _got == _want\n",
        "assert (w := model.weight) is not None and torch.equal(w, model.weight)\n",
    ],
)
def test_a_self_comparison_is_found(code):
    assert self_compared(SETUP, code), code


@pytest.mark.parametrize(
    "code",
    [
        "assert torch.allclose(y, x * 2)\n",  # x: setup's
        "assert losses[-1] < 1e-3\n",  # a constant
        "_t = torch.arange(3.0)\nassert torch.allclose(halve(_t), _t / 2)\n",
        "_out, _want = _helper(f)\nassert torch.allclose(_out, x * 2)\n",
        "for shape in [(2, 3), (4,)]:\n    assert tuple(f(shape)) == torch.empty(shape).stride()\n",
        "_w = [1, 2]\nfor _got, _e in zip(outs, _w):\n    assert _got == _e\n",
        "from math import isclose\nassert isclose(f(2.0), 4.0)\n",
        "_got = sum(p.numel() for p in m.parameters())\n_want = sum(p.numel() for p in nn.Linear(2, 2).parameters())\nassert _got == _want\n",
    ],
)
def test_an_expected_side_from_the_drill_is_fine(code):
    assert self_compared(SETUP, code) == [], code


def test_pack_check_reports_it_at_the_line_unless_the_drill_says_why(tmp_path):
    from tutor.content.pack_lint import check_paths

    pack = tmp_path / "p.yaml"
    body = (
        "pack: p\ntitle: P\nchapter: 1\ndrills:\n"
        "  - id: d\n    kind: fix\n    prompt: Fix it.\n"
        "    starter: |\n      rows = images\n"
        "    reference: |\n      images = torch.ones(2, 3)\n      rows = images.reshape(2, -1)\n"
        "    check:\n      assert: |\n        want = images.reshape(2, -1)\n"
        "        assert torch.equal(rows, want)\n"
    )
    pack.write_text(body)
    packs, problems = check_paths([pack])
    assert [(p.line, p.field, p.severity) for p in problems] == [
        (16, "drills[0].check.assert", "error")
    ], problems
    assert "torch.equal(rows, want)" in problems[0].message
    pack.write_text(body + "      self_check: the point is a round trip\n")
    assert check_paths([pack])[1] == []
