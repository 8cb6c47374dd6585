"""The drill kinds, one row each (``base.Kind`` says what a kind declares).

Adding a kind: its content model in ``tutor/content/models.py`` (a ``DrillBase`` subclass with
``kind: Literal["NAME"]``, joined to the ``Drill`` union), a module here with a ``Kind``
subclass, and its row below; ``tests/grading/test_kinds_registry.py`` checks every row.
"""

from __future__ import annotations

from tutor.content.models import Drill
from tutor.grading.kinds.base import AnswerInput, Kind, PackCheck, Sweep, Verdict
from tutor.grading.kinds.choice import ChoiceKind
from tutor.grading.kinds.code import CodeKind, FixKind
from tutor.grading.kinds.order import OrderKind
from tutor.grading.kinds.predict import PredictKind

__all__ = ["KINDS", "AnswerInput", "Kind", "PackCheck", "Sweep", "Verdict", "kind_of"]

#: every drill kind, by the name a pack writes
KINDS: dict[str, Kind] = {
    k.name: k for k in (PredictKind(), OrderKind(), ChoiceKind(), CodeKind(), FixKind())
}


def kind_of(drill: Drill) -> Kind:
    """The kind of ``drill`` (KeyError for a kind with no row)."""
    return KINDS[drill.kind]
