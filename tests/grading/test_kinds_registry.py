"""Every drill kind is one row of ``tutor.grading.kinds.KINDS``, and the row says everything the
engine, pack check, the sweep and the drill screen ask of it."""

from __future__ import annotations

import typing

import pytest

from tutor.content.catalog import Catalog
from tutor.content.models import Drill
from tutor.grading.attempt import make_variant
from tutor.grading.grade import Plan
from tutor.grading.kinds import KINDS, kind_of
from tutor.grading.kinds.base import AnswerInput, Kind
from tutor.grading.variants import draw_params


def _union_models() -> list[type]:
    union = typing.get_args(Drill)[0]
    return list(typing.get_args(union))


def test_every_drill_model_has_a_row_and_every_row_a_model():
    models = _union_models()
    assert {m.model_fields["kind"].annotation.__args__[0] for m in models} == set(KINDS)
    for name, kind in KINDS.items():
        assert kind.name == name
        assert kind.model in models
        assert kind.model.model_fields["kind"].annotation.__args__[0] == name


@pytest.mark.parametrize("name", sorted(KINDS))
def test_a_row_declares_what_the_rest_of_the_tutor_asks(name):
    kind = KINDS[name]
    assert isinstance(kind, Kind)
    assert kind.answer_input in typing.get_args(AnswerInput)
    assert kind.how.strip() and kind.timeout > 0
    assert isinstance(kind.sandboxed, bool) and isinstance(kind.truths, bool)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_built_in_drill_is_planned_and_revealed_by_its_kind(name):
    """Planning an empty answer either decides or names a probe, never both; the written
    answer is text for every kind that can write it, and the drill screen has a widget for its
    input."""
    from textual.widget import Widget

    from tutor.ui.screens.drill_parts import answer_widget

    refs = [r for r in Catalog.load().drills() if r.drill.kind == name]
    assert refs, f"no built-in {name} drill"
    for ref in refs[:5]:
        kind = kind_of(ref.drill)
        params = draw_params(ref.drill.params, 3)
        p = Plan(seed=3, params=params)
        kind.plan(ref.drill, p, "")
        assert (p.decided is None) != (p.call is None) or p.decided is not None
        written = kind.written_answer(ref.drill, params)
        assert written is None or written.strip()
        assert (written is None) == kind.truths
        assert isinstance(
            answer_widget(kind.answer_input, make_variant(ref.full_id, ref.drill, 3)), Widget
        )
