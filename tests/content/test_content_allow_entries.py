"""An `allow` entry names a torch function in full or a Python builtin by its bare name."""

from __future__ import annotations

import pytest

from tutor.content.pack_lint import check_paths

PACK = """\
pack: rules
title: Rules
chapter: 1
drills:
  - id: rev
    kind: code
    prompt: Reverse x.
    starter: |
      def rev(x):
          ...
    reference: |
      def rev(x):
          return x[torch.arange(len(x) - 1, -1, -1)]
    check:
      call: rev
      args:
        x: {{tensor: [3]}}
    allow: [{allow}]
"""


@pytest.mark.parametrize("allow", ["torch.arange", "torch.arange, len, range", "torch.Tensor.sum"])
def test_torch_names_and_builtins_are_entries(tmp_path, allow):
    path = tmp_path / "rules.yaml"
    path.write_text(PACK.format(allow=allow), encoding="utf-8")
    packs, problems = check_paths([path])
    assert packs and not problems, [str(p) for p in problems]


def test_anything_else_is_named(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(PACK.format(allow="torch.arange, arange"), encoding="utf-8")
    packs, problems = check_paths([path])
    (problem,) = problems
    assert problem.field == "drills[0].allow[1]"
    assert "`arange` is neither a torch function nor a Python builtin" in problem.message
