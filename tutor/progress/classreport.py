"""A class report: many learners' ``tutor progress export`` files summed up for an instructor.

Per drill (attempts, learners who mastered it, the most common wrong answers), per learner
(chapters done, drills mastered) and per chapter. The files are what each learner's own tutor
wrote and handed in: the report says so, because nothing in them is verified.

A file that cannot be read, is not a progress file, or repeats the attempts of a file already
read (the same progress handed in twice) is a ``FileProblem``; the other files are still
reported.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

from pydantic import ValidationError

from tutor.progress.store import MASTERY_MAX_HINTS
from tutor.progress.transfer import AttemptRow, ProgressFile

SELF_REPORTED = (
    "These figures come from progress files the learners exported themselves; "
    "nothing in them is verified."
)
#: a progress file bigger than this is refused unread
MAX_BYTES = 64 * 1024 * 1024
#: how many of a drill's most common wrong answers are listed
COMMON_WRONG = 3


@dataclass(frozen=True)
class FileProblem:
    """A file left out of the report, and why."""

    file: str
    error: str

    def __str__(self) -> str:
        return f"{self.file}: {self.error}"


@dataclass(frozen=True)
class Learner:
    """One learner's exported progress, named after its file."""

    name: str
    file: str
    doc: ProgressFile


def _reason(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"not a progress file: {where}: {first['msg']}" if where else first["msg"]


def read_learner(path: Path) -> Learner:
    """Read one export; raises ``ValueError`` with a plain reason when it cannot be used."""
    try:
        if not path.is_file():
            raise ValueError("no such file" if not path.exists() else "not a regular file")
        if path.stat().st_size > MAX_BYTES:
            raise ValueError(f"bigger than {MAX_BYTES // 2**20} MiB; not a progress export")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read it: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError("not a progress file: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a progress file: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != "tutor-progress":
        raise ValueError("not a progress file: `tutor progress export` writes one")
    try:
        doc = ProgressFile.model_validate(data)
    except ValidationError as exc:
        raise ValueError(_reason(exc)) from None
    return Learner(name=path.stem, file=str(path), doc=doc)


def read_learners(paths: list[Path]) -> tuple[list[Learner], list[FileProblem]]:
    """Every readable export, each learner named by its file name (its path when two files
    share a name); a file repeating attempts of one read before is left out as a problem."""
    learners: list[Learner] = []
    problems: list[FileProblem] = []
    owner: dict[str, str] = {}
    for path in paths:
        try:
            learner = read_learner(path)
        except ValueError as exc:
            problems.append(FileProblem(str(path), str(exc)))
            continue
        uids = {a.uid for a in learner.doc.attempts}
        seen = sorted({owner[u] for u in uids if u in owner})
        if seen:
            problems.append(
                FileProblem(
                    str(path),
                    f"repeats attempts of {seen[0]} (the same progress handed in twice?); "
                    "left out so nothing is counted twice",
                )
            )
            continue
        owner.update(dict.fromkeys(uids, str(path)))
        learners.append(learner)
    stems = Counter(learner.name for learner in learners)
    learners = [
        Learner(name=lr.file, file=lr.file, doc=lr.doc) if stems[lr.name] > 1 else lr
        for lr in learners
    ]
    return learners, problems


def _mastering(attempt: AttemptRow) -> bool:
    return attempt.correct and attempt.hints_used <= MASTERY_MAX_HINTS


def _shown_answer(answer: str) -> str:
    """An answer as counted: trailing spaces and blank lines at either end do not matter."""
    return "\n".join(line.rstrip() for line in answer.strip("\n").splitlines()).strip()


@dataclass
class _DrillTally:
    attempts: int = 0
    correct: int = 0
    learners: set[str] = field(default_factory=set)
    mastered: set[str] = field(default_factory=set)
    wrong: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)


def _drills(learners: list[Learner], chapter_of: dict[str, int]) -> list[dict[str, Any]]:
    tallies: dict[str, _DrillTally] = {}
    for learner in learners:
        for a in learner.doc.attempts:
            t = tallies.setdefault(a.drill, _DrillTally())
            t.attempts += 1
            t.correct += a.correct
            t.learners.add(learner.name)
            t.seconds.append(a.seconds)
            if _mastering(a):
                t.mastered.add(learner.name)
            elif not a.correct and _shown_answer(a.answer):
                t.wrong[_shown_answer(a.answer)] += 1
    rows = []
    for drill in sorted(tallies, key=lambda d: (chapter_of.get(d, 99), d)):
        t = tallies[drill]
        rows.append(
            {
                "drill": drill,
                "chapter": chapter_of.get(drill),
                "learners": len(t.learners),
                "attempts": t.attempts,
                "correct": t.correct,
                "mastered": len(t.mastered),
                "median_seconds": round(median(t.seconds), 1),
                "common_wrong": [
                    {"answer": answer, "count": n}
                    for answer, n in t.wrong.most_common(COMMON_WRONG)
                ],
            }
        )
    return rows


def _mastered(learner: Learner) -> set[str]:
    return {a.drill for a in learner.doc.attempts if _mastering(a)}


def _learners(learners: list[Learner]) -> list[dict[str, Any]]:
    rows = []
    for learner in learners:
        doc = learner.doc
        last = max((a.at for a in doc.attempts), default=None)
        rows.append(
            {
                "learner": learner.name,
                "file": learner.file,
                "attempts": len(doc.attempts),
                "drills_tried": len({a.drill for a in doc.attempts}),
                "drills_mastered": len(_mastered(learner)),
                "chapters_done": sorted({c.chapter for c in doc.chapters}),
                "lessons_read": sorted({lesson.chapter for lesson in doc.lessons}),
                "last_attempt": last.isoformat() if last else None,
            }
        )
    return rows


def _chapters(
    learners: list[Learner], chapter_of: dict[str, int], drills_in: dict[int, int]
) -> list[dict[str, Any]]:
    numbers = set(drills_in)
    for learner in learners:
        numbers |= {c.chapter for c in learner.doc.chapters}
        numbers |= {lesson.chapter for lesson in learner.doc.lessons}
        numbers |= {chapter_of[a.drill] for a in learner.doc.attempts if a.drill in chapter_of}
    rows = []
    for n in sorted(numbers):
        tried = [[a for a in lr.doc.attempts if chapter_of.get(a.drill) == n] for lr in learners]
        mastered = [len({d for d in _mastered(lr) if chapter_of.get(d) == n}) for lr in learners]
        rows.append(
            {
                "chapter": n,
                "drills": drills_in.get(n, 0),
                "learners_done": sum(n in {c.chapter for c in lr.doc.chapters} for lr in learners),
                "lessons_read": sum(n in {x.chapter for x in lr.doc.lessons} for lr in learners),
                "learners_active": sum(bool(t) for t in tried),
                "attempts": sum(len(t) for t in tried),
                "median_mastered": median(mastered) if mastered else 0,
            }
        )
    return rows


def class_report(
    learners: list[Learner], chapter_of: dict[str, int], problems: list[FileProblem]
) -> dict[str, Any]:
    """The report as one JSON-ready dict. ``chapter_of`` maps drill ids the tutor knows to
    their chapter (drills it does not know have chapter ``None`` and no chapter row)."""
    drills_in = Counter(chapter_of.values())
    return {
        "self_reported": SELF_REPORTED,
        "files": len(learners) + len(problems),
        "learners": _learners(learners),
        "drills": _drills(learners, chapter_of),
        "chapters": _chapters(learners, chapter_of, dict(drills_in)),
        "errors": [{"file": p.file, "error": p.error} for p in problems],
    }
