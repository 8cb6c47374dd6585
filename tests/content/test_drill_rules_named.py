"""A code drill whose rules allow only some torch functions names every one of them in its prompt:
a learner told "only `torch.arange`" must not find later that `torch.where` was allowed too."""

from __future__ import annotations

import pytest

from tutor.content.catalog import Catalog

CATALOG = Catalog.load()
RULED = [ref for ref in CATALOG.drills() if getattr(ref.drill, "allow", None)]


def _named(prompt: str, name: str) -> bool:
    """``torch.where`` is named as `torch.where`; a method ``torch.Tensor.sum`` as `.sum()`."""
    if name.startswith("torch.Tensor."):
        return f"`.{name.removeprefix('torch.Tensor.')}()`" in prompt
    return f"`{name}`" in prompt


def test_some_drills_have_rules():
    assert len(RULED) >= 10


@pytest.mark.parametrize("ref", RULED, ids=[ref.full_id for ref in RULED])
def test_the_prompt_names_every_function_the_rules_allow(ref):
    unnamed = [name for name in ref.drill.allow if not _named(ref.drill.prompt, name)]
    assert not unnamed, f"{ref.full_id}: the rules allow {unnamed}, which the prompt never names"
