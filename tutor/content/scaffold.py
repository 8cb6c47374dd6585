"""``tutor pack new``: a commented starter pack with one drill of each kind.

Every reference is correct under real torch, and every starter and ``wrong`` answer really
fails, so the scaffold passes ``tutor pack check`` (schema and sandbox stages) as written.
"""

from __future__ import annotations

import re

TEMPLATE = """\
# yaml-language-server: $schema=./pack.schema.json
# A drill pack for tutor: one YAML file, any number of drills.
# Check it with `tutor pack check @FILE@`; every key is described in docs/packs.md.
# `tutor pack schema > pack.schema.json` lets your editor complete and validate this file.
pack: @ID@                    # lowercase letters, digits and '-'; unique among loaded packs
title: @TITLE@
chapter: 1                    # default chapter (1-12) of the drills below
torch: ">=2.4"                # torch versions the pack is written for
description: A starter pack with one drill of each kind; edit or replace them.
drills:

  # predict: the learner types what torch returns for `ask` (or the exception it raises).
  - id: transpose-strides
    kind: predict
    title: Strides of a transpose
    prompt: |
      `x = torch.zeros({rows}, {cols})`. What is `x.t().stride()`?
    params:                   # drawn afresh for each attempt; {rows} and {cols} are replaced
      rows: {int: [2, 5]}     # an integer from 2 to 5, inclusive
      cols: {choice: [3, 4, 6]}
    setup: |
      x = torch.zeros({rows}, {cols})
    ask: x.t().stride()
    hints:                    # revealed one at a time
      - A contiguous ({rows}, {cols}) tensor has strides ({cols}, 1).
      - t() swaps the strides along with the sizes; no element moves.
    explain: |
      `t()` returns a view of the same storage with the strides swapped: `(1, {cols})`.
    lab: stride               # the live lab that shows this drill's setup
    tags: [views, strides]

  # order: the learner puts shuffled lines back in this order.
  - id: training-step
    kind: order
    prompt: Put one training step in order, starting from clean gradients.
    lines:
      - optimizer.zero_grad()
      - loss = loss_fn(model(x), y)
      - loss.backward()
      - optimizer.step()
    explain: Clear old gradients, record the tape, walk it backwards, then update.

  # choice: exactly one answer is correct; `why` is shown when a wrong one is picked.
  - id: view-of-transpose
    kind: choice
    prompt: |
      `x = torch.arange(6).reshape(2, 3)`. What does `x.t().view(6)` do?
    choices:
      - answer: It raises a RuntimeError, because the transpose is not contiguous.
        correct: true
      - answer: It returns `tensor([0, 3, 1, 4, 2, 5])`.
        why: That is what `x.t().reshape(6)` returns; reshape copies when it must, view never does.
      - answer: It returns `tensor([0, 1, 2, 3, 4, 5])`.
        why: No view of this storage lists the transpose's elements in order.
    quiz: true                # counts toward the chapter's quiz

  # code: the learner writes code from `starter`; `check` compares it with `reference`.
  - id: outer-product
    kind: code
    prompt: |
      Write `outer(a, b)`: for 1-D `a` (length n) and `b` (length m) return the (n, m)
      tensor with `out[i, j] == a[i] * b[j]`, using broadcasting instead of loops.
    starter: |
      def outer(a, b):
          ...
    reference: |
      def outer(a, b):
          return a[:, None] * b[None, :]
    check:
      call: outer             # the function compared with the reference's ...
      args:                   # ... on random inputs; a tensor's shape may name params
        a: {tensor: [n]}
        b: {tensor: [m]}
      params:                 # drawn afresh for every trial
        n: {int: [2, 6]}
        m: {int: [2, 6]}
      trials: 20
    forbid: [for, while, torch.outer, torch.einsum]   # loops (comprehensions too) and calls
    wrong:                    # answers that must fail; `tutor pack check` proves they do
      - |
        def outer(a, b):
            return a * b
      - |
        def outer(a, b):
            return a[None, :] * b[:, None]
    hints:
      - Give `a` a trailing axis of size 1 and `b` a leading one.
    explain: |
      `a[:, None]` has shape (n, 1) and `b[None, :]` has shape (1, m); broadcasting
      stretches both to (n, m).

  # fix: the learner repairs the broken `starter`; here `assert` code judges the result.
  - id: row-softmax
    kind: fix
    prompt: |
      `row_softmax(x)` should turn each row of a 2-D tensor into probabilities, so every
      row sums to 1. The rows do not. Fix it.
    starter: |
      def row_softmax(x):
          return torch.softmax(x, dim=0)
    reference: |
      def row_softmax(x):
          return torch.softmax(x, dim=1)
    check:
      assert: |               # runs after the learner's code, in the same namespace
        torch.manual_seed(0)
        p = row_softmax(torch.randn(4, 7))
        assert p.shape == (4, 7), f"shape {tuple(p.shape)}, expected (4, 7)"
        assert torch.allclose(p.sum(dim=1), torch.ones(4)), "each row must sum to 1"
    wrong:
      - |
        def row_softmax(x):
            return torch.softmax(x, dim=-2)
      - |
        def row_softmax(x):
            return x.exp() / x.exp().sum()
    hints:
      - Which dimension does `dim=0` run along in a 2-D tensor?
"""


def pack_id(name: str) -> str:
    """A valid pack id made from a file name: ``My Pack.yaml`` -> ``my-pack``."""
    stem = re.sub(r"\.ya?ml$", "", name.rsplit("/", 1)[-1])
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")
    return slug or "my-pack"


def scaffold(name: str, file: str) -> str:
    """The text of a new pack named after ``name``, to be written to ``file``."""
    ident = pack_id(name)
    title = ident.replace("-", " ").capitalize()
    return TEMPLATE.replace("@ID@", ident).replace("@TITLE@", title).replace("@FILE@", file)
