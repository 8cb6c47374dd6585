"""Moving progress between machines: export to JSON, import (merge) from JSON.

An import merges: attempts are kept once each (by uid), the earliest lesson-read and
chapter-done dates win, and for each drill the review card with the latest review wins.
A malformed file is refused whole, before anything is written.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, cast

import fsrs
from pydantic import BaseModel, ConfigDict

from tutor.progress.schema import SCHEMA_VERSION
from tutor.progress.store import Attempt, Store

FORMAT: Literal["tutor-progress"] = "tutor-progress"


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DrillRow(_Row):
    """A drill the learner attempted, as the exporting tutor knew it: enough for a class report
    on a machine that does not load the drill's pack."""

    drill: str
    chapter: int
    title: str = ""
    kind: str = ""


class LessonRow(_Row):
    chapter: int
    read_at: datetime


class CardRow(_Row):
    drill: str
    card: dict[str, Any]


class ChapterRow(_Row):
    chapter: int
    done_at: datetime


class LocationRow(_Row):
    kind: str
    ident: str
    at: datetime


class ProgressFile(_Row):
    """The JSON document `tutor progress export` writes."""

    format: Literal["tutor-progress"]
    version: int
    attempts: list[Attempt] = []
    """validated as the store's own ``Attempt`` rows (an unknown field is refused)"""
    lessons: list[LessonRow] = []
    cards: list[CardRow] = []
    chapters: list[ChapterRow] = []
    location: LocationRow | None = None
    drills: list[DrillRow] = []


def export_progress(store: Store, known: dict[str, DrillRow] | None = None) -> dict[str, Any]:
    """Everything in ``store`` as a JSON-ready dict; ``known`` (drill id -> its row, from the
    catalog) describes each attempted drill the exporting tutor loads."""
    rows = store._rows
    location = rows("SELECT kind, ident, at FROM location WHERE id = 1")
    attempts = store.attempts()
    tried = sorted({a.drill for a in attempts})
    doc = ProgressFile(
        format=FORMAT,
        version=SCHEMA_VERSION,
        attempts=attempts,
        lessons=[LessonRow(chapter=c, read_at=t) for c, t in rows("SELECT * FROM lessons")],
        cards=[
            CardRow(drill=d, card=dict(fsrs.Card.from_json(c).to_dict()))
            for d, c, _due in rows("SELECT * FROM cards")
        ],
        chapters=[ChapterRow(chapter=c, done_at=t) for c, t in rows("SELECT * FROM chapters")],
        location=LocationRow(kind=location[0][0], ident=location[0][1], at=location[0][2])
        if location
        else None,
        drills=[(known or {})[d] for d in tried if d in (known or {})],
    )
    return doc.model_dump(mode="json")


def import_progress(store: Store, data: dict[str, Any]) -> dict[str, int]:
    """Merge an exported document into ``store``; returns how many attempts were new.

    Raises ``pydantic.ValidationError`` (nothing written) when ``data`` is not a progress file.
    """
    doc = ProgressFile.model_validate(data)
    known = {a.uid for a in store.attempts()}
    new = [a for a in doc.attempts if a.uid not in known]
    statements: list[tuple[str, tuple[Any, ...]]] = [
        (
            "INSERT INTO attempts (uid, drill, seed, answer, correct, status, hints_used,"
            " seconds, at, revealed, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                a.uid,
                a.drill,
                a.seed,
                a.answer,
                int(a.correct),
                a.status,
                a.hints_used,
                a.seconds,
                a.at.isoformat(),
                int(a.revealed),
                a.outcome,
            ),
        )
        for a in new
    ]
    for lesson in doc.lessons:
        statements.append(
            (
                "INSERT INTO lessons (chapter, read_at) VALUES (?, ?) ON CONFLICT(chapter) DO UPDATE"
                " SET read_at = min(read_at, excluded.read_at)",
                (lesson.chapter, lesson.read_at.isoformat()),
            )
        )
    for chapter in doc.chapters:
        statements.append(
            (
                "INSERT INTO chapters (chapter, done_at) VALUES (?, ?) ON CONFLICT(chapter) DO"
                " UPDATE SET done_at = min(done_at, excluded.done_at)",
                (chapter.chapter, chapter.done_at.isoformat()),
            )
        )
    for row in doc.cards:
        card = fsrs.Card.from_dict(cast(Any, row.card))
        held = store._card(row.drill)
        if held is None or (
            card.last_review and (not held.last_review or card.last_review > held.last_review)
        ):
            statements.append(
                (
                    "INSERT OR REPLACE INTO cards (drill, card, due) VALUES (?, ?, ?)",
                    (row.drill, card.to_json(), card.due.isoformat()),
                )
            )
    if doc.location:
        mine = store._rows("SELECT at FROM location WHERE id = 1")
        if not mine or datetime.fromisoformat(mine[0][0]) < doc.location.at:
            statements.append(
                (
                    "INSERT OR REPLACE INTO location (id, kind, ident, at) VALUES (1, ?, ?, ?)",
                    (doc.location.kind, doc.location.ident, doc.location.at.isoformat()),
                )
            )
    store._write(statements)
    return {"attempts": len(new), "attempts_known": len(doc.attempts) - len(new)}
